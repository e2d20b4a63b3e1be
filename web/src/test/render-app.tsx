import { render } from "@testing-library/react";
import { StrictMode } from "react";
import { MemoryRouter } from "react-router-dom";
import { AppProviders } from "@/app-providers";
import { AppRoutes } from "@/App";
import { createQueryClient } from "@/lib/query-client";
import { siteConfigKeys } from "@/queries/site-config";
import type { SiteConfig } from "#contract/responses";
import { siteConfig as configuredSite } from "./fixtures";

/**
 * The whole app at `path` (in StrictMode, like main.tsx), with a fresh cache, as a visitor would open it. The
 * site configuration is already known (`siteConfig`, by default a configured marketing site), so a test's
 * fake API sees only its screen's calls; with `siteConfig: null` the app asks `GET /api/site-config` itself.
 */
export function renderApp(path: string, { siteConfig = configuredSite() }: { siteConfig?: SiteConfig | null } = {}) {
  const queryClient = createQueryClient();
  if (siteConfig) queryClient.setQueryData(siteConfigKeys.all, siteConfig);
  return {
    queryClient,
    ...render(
      <StrictMode>
        <MemoryRouter initialEntries={[path]}>
          <AppProviders queryClient={queryClient}>
            <AppRoutes />
          </AppProviders>
        </MemoryRouter>
      </StrictMode>,
    ),
  };
}
