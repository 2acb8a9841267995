import { serve } from "inngest/next";
import { inngest, inngestFunctions } from "@/inngest/client";

// Inngest (Cloud or self-hosted) drives the background jobs through this endpoint when INNGEST_* is set.
export const { GET, POST, PUT } = serve({ client: inngest, functions: inngestFunctions });
