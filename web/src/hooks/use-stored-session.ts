import { useSyncExternalStore } from "react";
import { getApiKey, subscribeToStorage } from "@/lib/storage";

/** The stored api key, re-rendering when it changes (here or in another tab). */
export function useStoredApiKey(): string | null {
  return useSyncExternalStore(subscribeToStorage, getApiKey, () => null);
}
