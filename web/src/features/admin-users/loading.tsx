import { Spinner } from "@/components/ui/spinner";

/** The centred spinner of every loading list on this screen. */
export function Loading() {
  return (
    <div className="flex justify-center py-8">
      <Spinner />
    </div>
  );
}
