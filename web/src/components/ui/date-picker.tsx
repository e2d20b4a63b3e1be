import { format } from "date-fns";
import { CalendarIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Calendar } from "@/components/ui/calendar";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { cn } from "@/lib/utils";

interface DatePickerProps {
  value: Date | undefined;
  /** The picked day (local midnight), or undefined when the picked day is pressed again. */
  onChange: (date: Date | undefined) => void;
  placeholder?: string;
  /** date-fns pattern of the button text. */
  displayFormat?: string;
  id?: string;
  className?: string;
  disabled?: boolean;
}

/** SPEC.md §2: a single date in a popover, 'Pick a date' until one is chosen; the popover closes on a pick. */
function DatePicker({
  value,
  onChange,
  placeholder = "Pick a date",
  displayFormat = "PPP",
  id,
  className,
  disabled,
}: DatePickerProps) {
  const [open, setOpen] = useState(false);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          id={id}
          variant="outline"
          disabled={disabled}
          className={cn("w-full justify-start text-left font-normal", !value && "text-muted-foreground", className)}
        >
          <CalendarIcon aria-hidden="true" />
          {value ? format(value, displayFormat) : <span>{placeholder}</span>}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-auto p-0" align="start">
        <Calendar
          mode="single"
          selected={value}
          defaultMonth={value}
          onSelect={(date) => {
            onChange(date);
            setOpen(false);
          }}
          autoFocus
        />
      </PopoverContent>
    </Popover>
  );
}

export { DatePicker, type DatePickerProps };
