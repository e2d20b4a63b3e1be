/**
 * @module Everything the SPA keeps in the browser, under the names SPEC.md §3 gives them. Writers notify
 * subscribers so screens that show session state (see `useStoredSession`) update in the same tab too.
 */
import type { Role } from "#contract/responses";

export const storageKeys = {
  apiKey: "apiKey",
  userRole: "userRole",
  /** While impersonating: the admin's own key, restored when the admin returns. */
  adminApiKey: "adminApiKey",
  /** While impersonating: the email of the customer being viewed. */
  impersonatedEmail: "impersonatedUserEmail",
} as const;

type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

const listeners = new Set<() => void>();

function read(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: StorageKey, value: string | null) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, blocked cookies); the session then lasts only this page.
  }
  listeners.forEach((notify) => notify());
}

export function getApiKey(): string | null {
  return read(storageKeys.apiKey) || null;
}

export function setApiKey(apiKey: string) {
  write(storageKeys.apiKey, apiKey);
}

export function getUserRole(): Role | null {
  const role = read(storageKeys.userRole);
  return role === "admin" || role === "user" ? role : null;
}

/** Stores the role, or forgets it for null. */
export function setUserRole(role: Role | null) {
  write(storageKeys.userRole, role);
}

/** Forgets who is signed in: the api key and the role. */
export function clearSession() {
  write(storageKeys.apiKey, null);
  write(storageKeys.userRole, null);
}

export interface Impersonation {
  /** The admin's own key, restored when the admin returns. */
  adminApiKey: string;
  /** The customer being viewed. */
  email: string;
}

/** The stored impersonation, or null unless both entries are there (without the admin key there is no way back). */
export function getImpersonation(): Impersonation | null {
  const adminApiKey = read(storageKeys.adminApiKey);
  const email = read(storageKeys.impersonatedEmail);
  return adminApiKey && email ? { adminApiKey, email } : null;
}

/** The impersonated customer's email while an impersonation is stored (a string, so it can be a store snapshot). */
export function getImpersonatedEmail(): string | null {
  return getImpersonation()?.email ?? null;
}

export function setImpersonation({ adminApiKey, email }: Impersonation) {
  write(storageKeys.adminApiKey, adminApiKey);
  write(storageKeys.impersonatedEmail, email);
}

export function clearImpersonation() {
  write(storageKeys.adminApiKey, null);
  write(storageKeys.impersonatedEmail, null);
}

/** Calls `onChange` after any write here or in another tab; returns the unsubscribe function. */
export function subscribeToStorage(onChange: () => void): () => void {
  listeners.add(onChange);
  window.addEventListener("storage", onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener("storage", onChange);
  };
}
