/**
 * @module The query keys of the admin console's users, mappings and audit events. They live apart from their
 * hooks so that customer code (a key rotation) and the admin query files can invalidate them without importing
 * each other or loading admin code into the customer bundle (docs/spa.md "Code splitting").
 */

/** A page of the users list: the server searches (email part) and sorts. */
export interface AdminUsersQuery {
  searchTerm?: string;
  sortBy?: "email" | "totalRequests" | "requestLimit";
  sortDirection?: "asc" | "desc";
  offset?: number;
}

/** Every key starts with `all`, so invalidating that prefix refreshes the list and every cached detail. */
export const adminUserKeys = {
  all: ["admin", "users"] as const,
  list: (query: AdminUsersQuery) => [...adminUserKeys.all, "list", query] as const,
  detail: (userId: string) => [...adminUserKeys.all, "detail", userId] as const,
  transactions: (userId: string, offset: number) => [...adminUserKeys.all, "transactions", userId, offset] as const,
  groups: (userId: string, offset: number) => [...adminUserKeys.all, "mapping-groups", userId, offset] as const,
  groupEvents: (userId: string, url: string, offset: number) =>
    [...adminUserKeys.all, "group-events", userId, url, offset] as const,
  websites: (userId: string, offset: number) => [...adminUserKeys.all, "websites", userId, offset] as const,
};

export const adminMappingKeys = {
  all: ["admin", "mappings"] as const,
  page: (searchTerm: string, offset: number) => [...adminMappingKeys.all, searchTerm, offset] as const,
};

export const adminAuditKeys = {
  all: ["admin", "audit-events"] as const,
  page: (offset: number, limit: number) => [...adminAuditKeys.all, offset, limit] as const,
};
