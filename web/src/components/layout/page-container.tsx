import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/** The centred content column every screen sits in. */
export function PageContainer({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("container mx-auto px-4 py-8", className)} {...props} />;
}
