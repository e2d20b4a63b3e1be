/**
 * @module The admin screens, each in its own chunk: a customer never downloads admin code.
 */
import { lazy } from "react";

export const IndexPage = lazy(() => import("@/features/index/index-page").then((m) => ({ default: m.IndexPage })));

export const AdminLoginPage = lazy(() =>
  import("@/features/admin-login/admin-login-page").then((m) => ({ default: m.AdminLoginPage })),
);

export const AdminDashboardPage = lazy(() =>
  import("@/features/admin/admin-dashboard-page").then((m) => ({ default: m.AdminDashboardPage })),
);

export const SmtpConfigPage = lazy(() =>
  import("@/features/smtp-config/smtp-config-page").then((m) => ({ default: m.SmtpConfigPage })),
);
