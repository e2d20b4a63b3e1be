import { Navigate, Route, Routes } from "react-router-dom";
import { AdminGuard } from "@/components/auth/admin-guard";
import { SiteLayout } from "@/components/layout/site-layout";
import { DashboardPage } from "@/features/customer/mappings/dashboard-page";
import { LoginPage } from "@/features/customer/login/login-page";
import { NotFoundPage } from "@/features/not-found/not-found-page";
import { RegisterLandingPage } from "@/features/customer/registration/register-landing-page";
import { RegisterPage } from "@/features/customer/registration/register-page";
import { SnippetPage } from "@/features/customer/snippet/snippet-page";
import { UserDashboardPage } from "@/features/customer/account/user-dashboard-page";
import type { LazyScreen } from "@/lib/lazy-screen";
import {
  AdminDashboardPage,
  AdminLoginPage,
  AdminUsersPage,
  BillingPage,
  IndexPage,
  ProductVersionsPage,
  SmtpConfigPage,
  TransactionDetailPage,
} from "@/admin-pages";

const adminOnly = (Screen: LazyScreen) => (
  <AdminGuard preload={Screen.preload}>
    <Screen />
  </AdminGuard>
);

/** The route table of SPEC.md §2. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<SiteLayout />}>
        <Route path="/" element={adminOnly(IndexPage)} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/snippet" element={<SnippetPage />} />
        <Route path="/dashboard" element={<DashboardPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/register-form" element={<RegisterLandingPage />} />
        <Route path="/verify-email" element={<RegisterPage />} />
        <Route path="/smtp-config" element={<SmtpConfigPage />} />
        <Route path="/admin-login" element={<AdminLoginPage />} />
        <Route path="/admin" element={adminOnly(AdminDashboardPage)} />
        <Route path="/admin/users" element={adminOnly(AdminUsersPage)} />
        <Route path="/admin/billing" element={adminOnly(BillingPage)} />
        <Route path="/admin/billing/transaction/:id" element={adminOnly(TransactionDetailPage)} />
        <Route path="/admin/product-versions" element={adminOnly(ProductVersionsPage)} />
        {/* The index links Product Versions here (SPEC.md §2); send it on rather than to the 404. */}
        <Route path="/product-versions" element={<Navigate to="/admin/product-versions" replace />} />
        <Route path="/users" element={adminOnly(AdminDashboardPage)} />
        <Route path="/user-dashboard" element={<UserDashboardPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
