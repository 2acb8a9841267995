import { health } from "@/lib/health";

export const dynamic = "force-dynamic";

export async function GET() {
  const h = await health();
  return Response.json(h, { status: h.ok ? 200 : 503 });
}
