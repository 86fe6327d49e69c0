import { createFileRoute, redirect } from '@tanstack/react-router';

// Entry route: its content is not part of the product; it leads to the login.
export const Route = createFileRoute('/auth')({
  beforeLoad: () => {
    throw redirect({ to: '/' });
  },
});
