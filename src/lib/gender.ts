import { useLingui } from '@lingui/react/macro';

/**
 * Gender as the reader's language words it. Hospitals record it in English ("Female", "Male",
 * "Other", as the Manage page offers them); those are translated, anything else is shown as recorded.
 */
export function useGenderLabel(): (recorded: string) => string {
  const { t } = useLingui();
  const known: Record<string, string> = { female: t`Female`, male: t`Male`, other: t`Other` };
  return (recorded) => known[recorded.trim().toLowerCase()] ?? recorded;
}
