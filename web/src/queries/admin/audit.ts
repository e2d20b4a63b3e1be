import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { AuditEvent } from "#contract/responses";
import { apiRequest } from "@/lib/api";
import { adminAuditKeys } from "./keys";

export interface AuditPage {
  events: AuditEvent[];
  total: number;
}

/**
 * GET /api/admin/audit-events: one page of what admins did to accounts, newest first, with the total. The section
 * reports a failure itself.
 */
export function useAuditEvents(offset: number, limit: number) {
  return useQuery({
    queryKey: adminAuditKeys.page(offset, limit),
    queryFn: async (): Promise<AuditPage> => {
      const response = await apiRequest("GET", `/api/admin/audit-events?limit=${limit}&offset=${offset}`);
      const events: unknown = await response.json();
      if (!Array.isArray(events)) throw new Error("The admin activity answer is not a list");
      return { events: events as AuditEvent[], total: Number(response.headers.get("X-Total-Count") ?? 0) };
    },
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
}
