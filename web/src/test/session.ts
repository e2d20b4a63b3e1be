/** The admin that GET /api/auth answers with in the admin screens' tests. */
export const ADMIN = { userId: "a1", email: "admin@example.com", role: "admin" as const };

/** What a sign-in leaves in the browser: the API key and, when given, the role. */
export function storeSession(apiKey: string, role?: string) {
  window.localStorage.setItem("apiKey", apiKey);
  if (role !== undefined) window.localStorage.setItem("userRole", role);
}

/** An admin signed in with the key 'admin-key'. */
export function signInAsAdmin() {
  storeSession("admin-key", "admin");
}
