import { useLingui } from '@lingui/react/macro';
import { genderText } from '../../report/labels.ts';

/**
 * Gender as the reader's language words it. Hospitals record it in English ("Female", "Male",
 * "Other", as the Manage page offers them); those are translated, anything else is shown as recorded.
 * The same words as the PDF's (report/labels.ts GENDER_LABELS).
 */
export function useGenderLabel(): (recorded: string) => string {
  const { i18n } = useLingui();
  return (recorded) => genderText(recorded, (d) => i18n._(d));
}
