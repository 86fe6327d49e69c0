import { createFileRoute, Outlet } from '@tanstack/react-router';

// Layout "auth" (file _login: the route /auth also exists): the patient and staff login pages, centred, without the app's navigation.
export const Route = createFileRoute('/_login')({ component: AuthLayout });

function AuthLayout() {
  return (
    <main className="auth-layout">
      <Outlet />
    </main>
  );
}
