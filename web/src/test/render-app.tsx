import { render } from "@testing-library/react";
import { StrictMode } from "react";
import { MemoryRouter } from "react-router-dom";
import { AppProviders } from "@/app-providers";
import { AppRoutes } from "@/App";
import { createQueryClient } from "@/lib/query-client";

/** The whole app at `path` (in StrictMode, like main.tsx), with a fresh cache, as a visitor would open it. */
export function renderApp(path: string) {
  const queryClient = createQueryClient();
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
