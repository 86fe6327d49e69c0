import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import type { ProfileDoc } from '../../../sync/storage/collections.ts';
import type { EddyDatabase } from '../../../sync/storage/database.ts';
import { useLiveDocs } from '../../lib/use-live.ts';
import { useRuntime } from '../../lib/runtime-context.tsx';

function greetingFor(hour: number): 'morning' | 'afternoon' | 'evening' {
  if (hour >= 5 && hour < 12) return 'morning';
  if (hour >= 12 && hour < 18) return 'afternoon';
  return 'evening';
}

/** The dashboard's heading: a greeting by name, 'Welcome back' after an auto-login, password hint. */
export function Greeting({ db }: { db: EddyDatabase | undefined }) {
  const { t } = useLingui();
  const runtime = useRuntime();
  const profile = useLiveDocs<ProfileDoc>(db, (d) => d.profile.find(), [])?.[0];
  const name = profile?.name.split(' ')[0] ?? '';
  useEffect(() => {
    if (profile?.name && runtime.takeWelcomeBack()) runtime.notify({ type: 'success', text: t`Welcome back, ${{ name: profile.name }}!` });
  }, [profile?.name, runtime, t]);
  const part = greetingFor(new Date().getHours());
  return (
    <>
      <h1>
        {!name ? (
          <Trans>Dashboard</Trans>
        ) : part === 'morning' ? (
          <Trans>Good morning, {name}</Trans>
        ) : part === 'afternoon' ? (
          <Trans>Good afternoon, {name}</Trans>
        ) : (
          <Trans>Good evening, {name}</Trans>
        )}
      </h1>
      {profile?.mustChangePassword && (
        <p className="notice" role="status">
          <Trans>
            You are using a temporary password. Please <Link to="/app/profile">change it in your profile</Link>.
          </Trans>
        </p>
      )}
    </>
  );
}
