/**
 * @module Getting started (docs/getting-started.md): the customer's steps, asked again every few seconds only while
 * the checklist waits for the first page view, and "Check my page".
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import type { InstallCheck, Onboarding } from "#contract/responses";
import type { InstallCheckBody } from "#contract/schemas";
import { apiJson, getJson } from "@/lib/api";

export const onboardingKeys = { all: ["onboarding"] as const };

/** How often the checklist asks while it waits for the snippet or the first counted view. */
export const ONBOARDING_POLL_MS = 3_000;

/** Whether the customer has a mapping but the snippet has not been seen or the first view not counted yet. */
export function waitingForFirstView(onboarding: Onboarding | undefined): boolean {
  const done = (key: string) => onboarding?.steps.find((s) => s.key === key)?.done === true;
  return done("mapping") && !(done("snippet") && done("firstView"));
}

/** The steps; a failure only hides the checklist (no toast). */
export function useOnboarding() {
  return useQuery({
    queryKey: onboardingKeys.all,
    queryFn: () => getJson<Onboarding>("/api/onboarding"),
    refetchInterval: (query) => (waitingForFirstView(query.state.data) ? ONBOARDING_POLL_MS : false),
    meta: { silent: true },
  });
}

/** Fetches the customer's page from the Worker and says what stands in the way; the screen shows a refusal itself. */
export function useInstallCheck() {
  return useMutation({
    mutationFn: (body: InstallCheckBody) => apiJson<InstallCheck>("POST", "/api/install-check", body),
    meta: { silent: true },
  });
}
