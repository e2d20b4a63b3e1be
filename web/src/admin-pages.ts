/**
 * @module The admin screens, each in its own chunk: a customer never downloads admin code. Each can be fetched
 * ahead (`preload`, while the admin guard checks the session), so that it shows without suspending.
 */
import { lazyScreen } from "@/lib/lazy-screen";

export const IndexPage = lazyScreen(() => import("@/features/admin/index/index-page").then((m) => m.IndexPage));

export const AdminLoginPage = lazyScreen(() =>
  import("@/features/admin/login/admin-login-page").then((m) => m.AdminLoginPage),
);

export const AdminDashboardPage = lazyScreen(() =>
  import("@/features/admin/overview/admin-dashboard-page").then((m) => m.AdminDashboardPage),
);

export const SmtpConfigPage = lazyScreen(() =>
  import("@/features/admin/smtp-config/smtp-config-page").then((m) => m.SmtpConfigPage),
);

export const ProductVersionsPage = lazyScreen(() =>
  import("@/features/admin/product-versions/product-versions-page").then((m) => m.ProductVersionsPage),
);

export const AdminUsersPage = lazyScreen(() =>
  import("@/features/admin/users/admin-users-page").then((m) => m.AdminUsersPage),
);

export const BillingPage = lazyScreen(() => import("@/features/admin/billing/billing-page").then((m) => m.BillingPage));

export const TransactionDetailPage = lazyScreen(() =>
  import("@/features/admin/transaction/transaction-detail-page").then((m) => m.TransactionDetailPage),
);
