// The script fonts' TTF files in the PDF worker: Vite emits them as hashed assets (the service worker
// fetches those of the language in use after login and keeps them, sw/later.ts, so an Arabic or
// Hindi report is made offline too) and the worker fetches only those the document needs. The server reads the same files from node_modules (report/fonts-node.ts).
import arabicBold from '@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf?url';
import arabicRegular from '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf?url';
import devanagariBold from '@expo-google-fonts/noto-sans-devanagari/700Bold/NotoSansDevanagari_700Bold.ttf?url';
import devanagariRegular from '@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf?url';
import type { FontLoader, ScriptFontFile } from '../../../report/pdf-engine.ts';

const URLS: Record<ScriptFontFile, string> = {
  'NotoSansArabic-Regular.ttf': arabicRegular,
  'NotoSansArabic-Bold.ttf': arabicBold,
  'NotoSansDevanagari-Regular.ttf': devanagariRegular,
  'NotoSansDevanagari-Bold.ttf': devanagariBold,
};

/** A font the document needs could not be fetched: offline, and not kept on this device yet. */
export class FontNotOnDevice extends Error {
  constructor(file: string, cause: unknown) {
    super(`font ${file} is not on this device and could not be fetched`, { cause });
    this.name = 'FontNotOnDevice';
  }
}

export const loadFontAsset: FontLoader = async (file) => {
  let res: Response;
  try {
    res = await fetch(URLS[file]);
  } catch (err) {
    // A network failure (the service worker has no copy and there is no connection).
    throw new FontNotOnDevice(file, err);
  }
  if (!res.ok) throw new Error(`font ${file}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
};
