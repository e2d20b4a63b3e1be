/**
 * The audience section on its own: its fields made once it is opened, the country picker's filter, German labels,
 * and a message on the whole audience.
 */
import { fireEvent, render, screen, within } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { AUDIENCE_NEEDS_A_CONDITION } from "#contract/audiences";
import { NO_AUDIENCE, type AudienceInput } from "./audience-input";
import { AudienceSection } from "./audience-section";
import type { AudienceLanguage } from "./audience-text";

function Section({ lang, errors = {} }: { lang?: AudienceLanguage; errors?: Partial<Record<string, string>> }) {
  const [value, setValue] = useState<AudienceInput>(NO_AUDIENCE);
  return (
    <>
      <AudienceSection value={value} onChange={setValue} errors={errors} lang={lang} />
      <output>{value.country.join(" ")}</output>
    </>
  );
}

describe("the audience section", () => {
  it("filters countries by name and by code (the exact code first), skipping those chosen", () => {
    render(<Section />);
    fireEvent.click(screen.getByText("Audience (optional)"));
    const picker = screen.getByRole("combobox", { name: "Countries" });
    fireEvent.change(picker, { target: { value: "Austr" } });
    const options = () =>
      within(screen.getByRole("listbox"))
        .getAllByRole("option")
        .map((o) => o.textContent);
    expect(options()).toEqual(["Australia (AU)", "Austria (AT)"]);
    fireEvent.change(picker, { target: { value: "ch" } });
    expect(options()[0]).toBe("Switzerland (CH)");
    fireEvent.keyDown(picker, { key: "Enter" });
    expect(screen.getByRole("status")).toHaveTextContent("CH");
    fireEvent.change(picker, { target: { value: "ch" } });
    expect(options()).not.toContain("Switzerland (CH)");
  });

  it("speaks German, country names too", () => {
    render(<Section lang="de" />);
    fireEvent.click(screen.getByText("Zielgruppe (optional)"));
    expect(screen.getByRole("button", { name: "Suchmaschine" })).toBeInTheDocument();
    fireEvent.change(screen.getByRole("combobox", { name: "Länder" }), { target: { value: "Österr" } });
    expect(screen.getByRole("option", { name: "Österreich (AT)" })).toBeInTheDocument();
  });

  it("makes its fields only once it is first opened", () => {
    render(<Section />);
    expect(screen.queryByLabelText("Audience name")).not.toBeInTheDocument();
    fireEvent.click(screen.getByText("Audience (optional)"));
    expect(screen.getByLabelText("Audience name")).toBeInTheDocument();
  });

  it("opens itself to show a message about the whole audience", () => {
    render(<Section errors={{ audience: AUDIENCE_NEEDS_A_CONDITION }} />);
    expect(screen.getByText("Audience (optional)").closest("details")).toHaveAttribute("open");
    expect(screen.getByText(AUDIENCE_NEEDS_A_CONDITION)).toBeVisible();
  });
});
