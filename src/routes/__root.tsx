import { createRootRoute, Outlet } from '@tanstack/react-router';
import { ErrorPage, NotFoundPage } from '../components/error-pages.tsx';

export const Route = createRootRoute({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});

function RootLayout() {
  return <Outlet />;
}
