import type { Metadata } from "next";
import { FinderView } from "@/components/finder/finder-view";

export const metadata: Metadata = { title: "Finder" };

export default function FinderPage() {
  return <FinderView />;
}
