// The script fonts' TTF files in the PDF worker: Vite emits them as hashed assets (the service worker
// precaches them, so an Arabic or Hindi report is made offline too) and the worker fetches only those
// the document needs. The server reads the same files from node_modules (schemas/report/fonts-node.ts).
import arabicBold from '@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf?url';
import arabicRegular from '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf?url';
import devanagariBold from '@expo-google-fonts/noto-sans-devanagari/700Bold/NotoSansDevanagari_700Bold.ttf?url';
import devanagariRegular from '@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf?url';
import type { FontLoader, ScriptFontFile } from '../../../schemas/report/pdf-engine.ts';

const URLS: Record<ScriptFontFile, string> = {
  'NotoSansArabic-Regular.ttf': arabicRegular,
  'NotoSansArabic-Bold.ttf': arabicBold,
  'NotoSansDevanagari-Regular.ttf': devanagariRegular,
  'NotoSansDevanagari-Bold.ttf': devanagariBold,
};

export const loadFontAsset: FontLoader = async (file) => {
  const res = await fetch(URLS[file]);
  if (!res.ok) throw new Error(`font ${file}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
};
