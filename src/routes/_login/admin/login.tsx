import { createFileRoute, redirect } from '@tanstack/react-router';

// The older address of the staff login: it is the same page as /admin.
export const Route = createFileRoute('/_login/admin/login')({
  beforeLoad: () => {
    throw redirect({ to: '/admin' });
  },
});
