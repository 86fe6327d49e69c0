import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { EmptyState } from '../../components/empty-state.tsx';
import { Icon } from '../../components/icon.tsx';
import { Pager } from '../../components/pager.tsx';
import { toast } from '../../lib/ui/toast-store.ts';
import { OpenedHere } from './opened-here.tsx';
import { UsersTable } from './users-table.tsx';
import { useDebounced, useUsers } from './use-users.ts';
import './staff-users.css';

const PAGE_SIZES = [5, 10, 20, 50] as const;

/** Find a patient (docs/requirements.md §7 users list: page 1, 5 a page, empty search by default) and open their report. */
export function UsersList({ hospitalId, onOpen }: { hospitalId: string | undefined; onOpen: (hospNo: string) => void }) {
  const { t } = useLingui();
  const [search, setSearch] = useState('');
  const [limit, setLimit] = useState(5);
  const [page, setPage] = useState(1);
  const [query, setQuery] = useState({ search: '', limit: 5, hospitalId });
  const settled = useDebounced(search.trim(), 300);
  const searchId = useId();
  const sizeId = useId();

  // A new search, page size or hospital starts again at page 1.
  if (query.search !== settled || query.limit !== limit || query.hospitalId !== hospitalId) {
    setQuery({ search: settled, limit, hospitalId });
    setPage(1);
  }

  // Offline the list below says what it searches instead (issue 46): no toast on top of it.
  const result = useUsers({ search: settled, page, limit, hospitalId }, ({ offline }) => {
    if (!offline) toast({ type: 'error', text: t`Failed to fetch users list` });
  });
  const offline = result.status === 'error' && result.offline;
  const data = result.status === 'ready' ? result.data : result.status === 'loading' ? result.last : undefined;
  const pages = Math.max(1, data?.pages ?? 1);

  return (
    <section className="card users-list" aria-labelledby="users-title" aria-busy={result.status === 'loading'}>
      <h2 id="users-title">
        <Trans>Patients</Trans>
      </h2>
      <div className="users-controls">
        <div className="field users-search">
          <label htmlFor={searchId}>
            <Trans>Search by name or hospital number</Trans>
          </label>
          <input
            id={searchId}
            type="search"
            inputMode="search"
            autoComplete="off"
            spellCheck={false}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="field users-size">
          <label htmlFor={sizeId}>
            <Trans>Patients per page</Trans>
          </label>
          <select id={sizeId} value={limit} onChange={(e) => setLimit(Number(e.target.value))}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
      </div>
      {result.status === 'loading' && (
        <p className="muted users-loading" role="status">
          <Icon icon="mdi:refresh" /> <Trans>Loading patients…</Trans>
        </p>
      )}
      {result.status === 'error' && !result.expired && !offline && (
        <p className="error-text users-error" role="alert">
          <Trans>Failed to fetch users list</Trans>
        </p>
      )}
      {offline && <OpenedHere search={settled} onOpen={onOpen} />}
      {data && data.users.length > 0 && <UsersTable users={data.users} onOpen={onOpen} />}
      {result.status === 'ready' && result.data.users.length === 0 && (
        <EmptyState icon="mdi:magnify">
          {settled ? (
            <Trans>No patients match “{settled}”. Check the spelling or the hospital number, or choose another hospital.</Trans>
          ) : (
            <Trans>No patients here yet. An administrator adds patients to a hospital.</Trans>
          )}
        </EmptyState>
      )}
      {data && <Pager page={page} pages={pages} label={t`Pages`} onPage={setPage} />}
    </section>
  );
}
