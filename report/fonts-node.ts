// The script fonts' TTF files under Node (the server, tests): read from the font packages in
// node_modules. The browser's PDF worker has its own loader (src/features/reports/pdf-fonts.ts).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FontLoader, ScriptFontFile } from './pdf-engine.ts';

const require = createRequire(import.meta.url);

/** Where each file of pdf-engine.ts's FONTS is in its package (Google's Noto Sans, SIL OFL 1.1). */
export const SCRIPT_FONT_PACKAGE_FILES: Record<ScriptFontFile, string> = {
  'NotoSansArabic-Regular.ttf': '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf',
  'NotoSansArabic-Bold.ttf': '@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf',
  'NotoSansDevanagari-Regular.ttf': '@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf',
  'NotoSansDevanagari-Bold.ttf': '@expo-google-fonts/noto-sans-devanagari/700Bold/NotoSansDevanagari_700Bold.ttf',
};

export const loadFontFromPackages: FontLoader = async (file) => new Uint8Array(await readFile(require.resolve(SCRIPT_FONT_PACKAGE_FILES[file])));
