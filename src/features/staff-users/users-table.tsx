import { Trans, useLingui } from '@lingui/react/macro';
import { OpenReportButton } from '../../components/open-report-button.tsx';
import type { StaffUser } from './use-users.ts';

/** One page of patients: who, where, and when their device last synchronized. */
export function UsersTable({ users, onOpen }: { users: StaffUser[]; onOpen: (hospNo: string) => void }) {
  const { t, i18n } = useLingui();
  const when = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div className="users-table-wrap">
      <table className="users-table">
        <caption className="visually-hidden">{t`Patients found`}</caption>
        <thead>
          <tr>
            <th scope="col">
              <Trans>Name</Trans>
            </th>
            <th scope="col">
              <Trans>Hospital number</Trans>
            </th>
            <th scope="col">
              <Trans>Hospital</Trans>
            </th>
            <th scope="col">
              <Trans>Last sync</Trans>
            </th>
            <th scope="col">
              <span className="visually-hidden">
                <Trans>Report</Trans>
              </span>
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u._id}>
              <th scope="row" data-label={t`Name`}>
                {u.name}
              </th>
              <td data-label={t`Hospital number`}>{u.hospNo}</td>
              <td data-label={t`Hospital`}>{u.hospital ?? ''}</td>
              <td data-label={t`Last sync`}>{u.lastSyncAt ? when.format(new Date(u.lastSyncAt)) : t`never`}</td>
              <td>
                <OpenReportButton patient={u} onOpen={onOpen} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
