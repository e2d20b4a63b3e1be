/**
 * @module What the API answers, typed once for the Worker and the SPA. Dates travel as ISO strings.
 */

/** Every 4xx/5xx answers with this body. */
export interface ErrorBody {
  error: string;
}

export type Role = "user" | "admin";

export interface AuthInfo {
  userId: string;
  email: string;
  role: Role;
}

export interface RegisterResponse {
  message: string;
  email: string;
}

export interface VerifyEmailResponse {
  message: string;
  email: string;
  apiKey: string;
}

export interface AdminLoginResponse {
  apiKey: string;
  user: AuthInfo;
}

export interface Mapping {
  id: number;
  userId: string;
  url: string;
  htmlContent: string;
  createdAt: string;
  publishedAt: string | null;
  totalRequests: number;
  contentDeliveryCount: number;
}

export interface Stats {
  totalRequests: number;
  requestLimit: number | null;
  lastMonthRequests: number;
}

export interface AnalyticsRow {
  url: string;
  totalHits: number;
  lastAccessed: string | null;
}

export interface SmtpConfig {
  host: string;
  port: number | null;
  user: string;
  password: string;
  from: string;
}

export interface ProductVersionSummary {
  id: number;
  name: string;
  description: string | null;
  websitesLimit: number | null;
  eventsLimit: number | null;
  dynamicContentLimit: number | null;
}

export interface CustomerDashboard {
  userId: string;
  email: string;
  apiKey: string;
  jsSnippet: string;
  productVersion: ProductVersionSummary | null;
  billingPeriodStart: string | null;
  billingPeriodEnd: string | null;
  usage: { activeWebsites: number; dynamicEvents: number; contentGenerations: number };
}

export interface MessageResponse {
  message: string;
}

export interface LoginRequestResponse {
  message: string;
  email: string;
}

export interface LoginVerifyResponse {
  apiKey: string;
  user: AuthInfo;
}

/** A plan as customers and admins see it. Limits: null = unlimited. Price in whole currency units. */
export interface ProductVersion {
  id: number;
  name: string;
  description: string | null;
  eventsLimit: number | null;
  websitesLimit: number | null;
  dynamicContentLimit: number | null;
  price: number | null;
  paypalPlanId: string | null;
  isDefault: boolean;
}

export interface PaymentHistoryItem {
  date: string;
  product: string;
  amount: number;
  currency: string;
  billingPeriod: { start: string | null; end: string | null };
}
