// The live change stream (GET /api/changes) read as a test reads it: opened with the session's
// token, its text gathered until a pattern shows (or a deadline passes), closed at the end.
export interface EventStream {
  res: Response;
  /** Waits until the stream's text matches, at most `ms`. */
  until(pattern: RegExp, ms: number): Promise<void>;
  /** Waits until text read from now on matches, at most `ms`. */
  next(pattern: RegExp, ms: number): Promise<void>;
  /** Everything read so far. */
  text(): string;
  close(): void;
}

export async function openEventStream(base: string, token: string): Promise<EventStream> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/changes`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: controller.signal });
  let text = '';
  const reader = res.body?.pipeThrough(new TextDecoderStream()).getReader();
  const read = async (from: number, pattern: RegExp, ms: number) => {
    if (!reader) throw new Error(`the stream has no body (status ${res.status})`);
    const deadline = Date.now() + ms;
    while (!pattern.test(text.slice(from))) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`not within ${ms} ms: ${String(pattern)} (stream: ${text})`);
      const next = await Promise.race([reader.read(), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), left))]);
      if (next?.done) throw new Error(`the stream ended (stream: ${text})`);
      if (next?.value) text += next.value;
    }
  };
  return {
    res,
    text: () => text,
    until: (pattern, ms) => read(0, pattern, ms),
    next: (pattern, ms) => read(text.length, pattern, ms),
    close: () => controller.abort(),
  };
}

/**
 * How long each of `times` writes takes to be heard on the stream as a `change`, from the write's
 * start (ms, sorted). A proxy that holds small packets back (Nagle's algorithm: HAProxy without
 * `option http-no-delay`) adds about 200 ms to every event.
 */
export async function eventDelays(stream: EventStream, write: (i: number) => Promise<void>, times: number): Promise<number[]> {
  const delays: number[] = [];
  for (let i = 0; i < times; i++) {
    const heard = stream.next(/event: change/, 5_000);
    const wrote = performance.now();
    await write(i);
    await heard;
    delays.push(performance.now() - wrote);
    // Apart from each other: the server folds changes that come within 50 ms into one event.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return delays.sort((a, b) => a - b);
}
