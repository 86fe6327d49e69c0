// Saving a report made on the device: a Blob URL on a temporary link, so it works offline and the
// data never leaves the device on the way to the file. File names come from the core
// (report/csv.ts reportFileName), the same as the server's.
export function downloadFile(data: BlobPart, type: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has started reading the Blob when click() returns in every current engine, but
  // Safari has been known to need a moment: revoke later rather than at once.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
