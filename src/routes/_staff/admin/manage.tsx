import { createFileRoute } from '@tanstack/react-router';
import { ManagePage } from '../../../features/staff-manage/manage-page.tsx';

export const Route = createFileRoute('/_staff/admin/manage')({ component: ManagePage });
