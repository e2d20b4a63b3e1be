import { useState, type ComponentProps } from "react";
import { Input } from "@/components/ui/input";
import { parseRequestLimit } from "./users-view";

interface LimitNumberInputProps extends Omit<ComponentProps<typeof Input>, "value" | "onChange" | "onBlur"> {
  /** The stored limit (null: none). */
  saved: number | null;
  /** Saves a changed limit; `reset` puts the stored one back into the field (on a failure). */
  save: (limit: number | null, reset: () => void) => void;
}

/**
 * A limit typed as a number and saved on blur or Enter when it changed. Empty or non-numeric text is null
 * (SPEC.md §5); decimals are cut to whole numbers.
 */
export function LimitNumberInput({ saved, save, ...props }: LimitNumberInputProps) {
  const [text, setText] = useState(saved === null ? "" : String(saved));
  const reset = () => setText(saved === null ? "" : String(saved));

  function commit() {
    const limit = parseRequestLimit(text);
    if (limit === saved) reset();
    else save(limit, reset);
  }

  return (
    <Input
      type="number"
      min={0}
      step={1}
      inputMode="numeric"
      {...props}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === "Enter") e.currentTarget.blur();
      }}
    />
  );
}
