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

export const ProductVersionsPage = lazy(() =>
  import("@/features/product-versions/product-versions-page").then((m) => ({ default: m.ProductVersionsPage })),
);

export const AdminUsersPage = lazy(() =>
  import("@/features/admin-users/admin-users-page").then((m) => ({ default: m.AdminUsersPage })),
);

export const BillingPage = lazy(() =>
  import("@/features/billing/billing-page").then((m) => ({ default: m.BillingPage })),
);

export const TransactionDetailPage = lazy(() =>
  import("@/features/transaction-detail/transaction-detail-page").then((m) => ({ default: m.TransactionDetailPage })),
);
