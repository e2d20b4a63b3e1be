/**
 * @module A list of short values typed one by one: Enter or a comma makes the typed text a chip (a pasted "a, b"
 * makes two), leaving the field keeps what was typed, Backspace in the empty field takes the last chip back, and
 * each chip has its own remove button. The field takes the id and aria attributes a FormField gives.
 */
import { useState, type ComponentProps, type KeyboardEvent } from "react";
import { X } from "lucide-react";
import { cn } from "@/lib/utils";

interface TagInputProps extends Omit<ComponentProps<"input">, "value" | "onChange"> {
  value: string[];
  onChange: (value: string[]) => void;
  /** The chip's remove button's name, e.g. `Remove ${value}`. */
  removeLabel: (value: string) => string;
  /** How a chip shows its value (the value itself unless given). */
  format?: (value: string) => string;
}

function TagInput({ value, onChange, removeLabel, format = (v) => v, className, ...props }: TagInputProps) {
  const [typed, setTyped] = useState("");

  function add(text: string) {
    const added = text
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "" && !value.includes(part));
    if (added.length > 0) onChange([...value, ...new Set(added)]);
    setTyped("");
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter" || event.key === ",") {
      event.preventDefault();
      add(typed);
    } else if (event.key === "Backspace" && typed === "" && value.length > 0) {
      setTyped(value.at(-1)!);
      onChange(value.slice(0, -1));
    }
  }

  return (
    <div
      className={cn(
        "flex min-h-10 w-full flex-wrap items-center gap-1 rounded-md border border-input bg-background px-2 py-1 focus-within:ring-2 focus-within:ring-ring focus-within:ring-offset-2 has-aria-invalid:border-destructive",
        className,
      )}
    >
      {value.map((item) => (
        <Chip
          key={item}
          label={format(item)}
          removeLabel={removeLabel(item)}
          onRemove={() => onChange(value.filter((v) => v !== item))}
        />
      ))}
      <input
        {...props}
        value={typed}
        onChange={(e) => (e.target.value.includes(",") ? add(e.target.value) : setTyped(e.target.value))}
        onKeyDown={onKeyDown}
        onBlur={() => add(typed)}
        className="h-8 min-w-[8rem] flex-1 bg-transparent px-1 text-base outline-none placeholder:text-muted-foreground md:text-sm"
      />
    </div>
  );
}

/** One chosen value, with a button that removes it. */
function Chip({ label, removeLabel, onRemove }: { label: string; removeLabel: string; onRemove: () => void }) {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-secondary px-2 py-0.5 text-xs font-medium text-secondary-foreground">
      {label}
      <button
        type="button"
        aria-label={removeLabel}
        onClick={onRemove}
        className="rounded-full hover:bg-background/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <X className="size-3" aria-hidden />
      </button>
    </span>
  );
}

export { Chip, TagInput };
