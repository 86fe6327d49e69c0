import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { inBackground } from '../../../sync/background.ts';
import { Icon } from '../../components/icon.tsx';
import { LanguageSelect } from '../../components/language-select.tsx';
import { useStaffSession } from '../../lib/runtime-context.tsx';
import { useStaffLogout } from './use-staff-logout.ts';
import './staff-header.css';

/** The staff area's header: who is logged in (doctors marked as such), the pages (Manage for admins), log out. */
export function StaffHeader() {
  const { t } = useLingui();
  const state = useStaffSession();
  const logout = useStaffLogout();
  const staff = state.status === 'logged-in' ? state.staff : undefined;
  return (
    <header className="app-header staff-header">
      <div className="staff-header-who">
        <Link to="/admin/hospital-select" className="brand">
          <Icon icon="mdi:medical-bag" /> <Trans>Eddy staff area</Trans>
        </Link>
        {staff && (
          <span className="staff-header-name">
            <Icon icon="mdi:account" /> {staff.name}
            {staff.role === 'doctor' && (
              <span className="staff-doctor-badge">
                <Trans>logged in as doctor</Trans>
              </span>
            )}
          </span>
        )}
      </div>
      <nav className="staff-nav" aria-label={t`Staff`}>
        <Link to="/admin/hospital-select" className="staff-nav-item" activeProps={{ 'aria-current': 'page' }}>
          <Icon icon="mdi:format-list-bulleted" />
          <span>
            <Trans>Patients</Trans>
          </span>
        </Link>
        <Link to="/admin/report" className="staff-nav-item" activeProps={{ 'aria-current': 'page' }}>
          <Icon icon="mdi:file-chart" />
          <span>
            <Trans>Patient report</Trans>
          </span>
        </Link>
        {staff?.role === 'admin' && (
          <Link to="/admin/manage" className="staff-nav-item" activeProps={{ 'aria-current': 'page' }}>
            <Icon icon="mdi:account" />
            <span>
              <Trans>Manage</Trans>
            </span>
          </Link>
        )}
        <LanguageSelect compact />
        <button type="button" className="header-button" onClick={() => inBackground(logout(), 'Staff logout failed')}>
          <Icon icon="mdi:logout" />
          <span>
            <Trans>Log out</Trans>
          </span>
        </button>
      </nav>
    </header>
  );
}
