import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Icon } from '../../components/icon.tsx';
import { useFormat } from './format.ts';
import './staff-review.css';

/**
 * Where the data on screen comes from, and Reset. `refreshing`: the device's own copy, shown at once
 * while the server is asked what changed since; it says as of when until the answer is in.
 */
export function ReviewStatus({
  name,
  fetchedAt,
  offline,
  refreshing,
  onReset,
}: {
  name: string;
  fetchedAt: number;
  offline: boolean;
  refreshing: boolean;
  onReset: () => void;
}) {
  const { t } = useLingui();
  const f = useFormat();
  const [confirming, setConfirming] = useState(false);
  const when = f.dateTime(fetchedAt);
  return (
    <div className="review-status">
      {offline && (
        <p className="review-offline" role="status">
          <Icon icon="mdi:cloud-off-outline" />
          <span>
            <Trans>Offline: showing data fetched {when}</Trans>
          </span>
        </p>
      )}
      <div className="section-head">
        <p className="muted" role="status">
          {refreshing ? <Trans>As of {when}, from this device; checking for newer data…</Trans> : <Trans>Fetched {when}</Trans>}
        </p>
        <button type="button" className="button button--secondary" onClick={() => setConfirming(true)}>
          <Trans>Reset</Trans>
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t`Reset the review of ${name}?`}
        confirmLabel={t`Reset`}
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          onReset();
        }}
      >
        <p>
          <Trans>This removes the patient's data from this screen and from this device's offline copy. You can choose the patient again at any time.</Trans>
        </p>
      </ConfirmDialog>
    </div>
  );
}

/** No staff session or no patient chosen: nothing is fetched (docs/requirements.md §8). */
export function ChoosePatient() {
  return (
    <div className="empty-state">
      <Icon icon="mdi:map-marker-question" className="empty-state-icon" />
      <p>
        <Trans>No patient is chosen, so there is nothing to show yet.</Trans>
      </p>
      <Link to="/admin/hospital-select" className="button">
        <Trans>Choose a patient</Trans>
      </Link>
    </div>
  );
}
