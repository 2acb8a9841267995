"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { SessionProvider } from "next-auth/react";
import { useState, type ReactNode } from "react";
import { ApiError } from "./api-client";

/** A 401 on a dashboard call means the session ended (expired, or signed out in another tab). */
function onAuthLost(e: unknown) {
  if (e instanceof ApiError && e.status === 401 && window.location.pathname !== "/login") window.location.assign("/login");
}

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: onAuthLost }),
        mutationCache: new MutationCache({ onError: onAuthLost }),
        defaultOptions: {
          queries: {
            staleTime: 10_000,
            // Client errors (4xx) will not fix themselves on a retry; network blips might.
            retry: (n, e) => n < 2 && !(e instanceof ApiError && e.status >= 400 && e.status < 500),
          },
        },
      }),
  );
  return (
    <SessionProvider>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </SessionProvider>
  );
}
