import { TriangleAlert } from "lucide-react";
import type { TransactionDetail } from "#contract/responses";
import { formatGermanDayTime } from "@/lib/format-date";
import { formatMoney } from "@/lib/format-money";
import { DetailCard, type DetailField } from "./detail-card";
import { isCancelledProfile } from "./format-detail-value";
import { PayerEmailEditor } from "./payer-email-editor";

type Group<K extends keyof TransactionDetail> = TransactionDetail[K];

export const CARD_TITLES = {
  payerInfo: "Zahler",
  productInfo: "Produktversion",
  paymentDetails: "Zahlungsdetails",
  subscriptionData: "Abonnement- und Transaktionsdaten",
  merchantInfo: "Zahlungsempfänger",
  payerAddress: "Kundenadresse",
  additionalInfo: "Weitere Informationen",
} as const;

export const SUBSCRIPTION_CANCELLED_TEXT = "Subscription Cancelled";
export const NO_MATCHING_USER_TEXT = "No matching user account found";

const PRODUCT_FIELDS: DetailField<Group<"productInfo">>[] = [
  { key: "productName", label: "Produktname" },
  { key: "productType", label: "Produkttyp" },
];

const MERCHANT_FIELDS: DetailField<Group<"merchantInfo">>[] = [
  { key: "email", label: "E-Mail" },
  { key: "businessEmail", label: "Geschäfts-E-Mail" },
  { key: "receiverId", label: "Empfänger-ID" },
];

const SUBSCRIPTION_FIELDS: DetailField<Group<"subscriptionData">>[] = [
  { key: "subscriptionType", label: "Abonnementtyp" },
  { key: "paymentCycle", label: "Zahlungszyklus" },
  { key: "amountPerCycle", label: "Betrag pro Zyklus" },
  { key: "initialPaymentAmount", label: "Erstzahlung" },
  { key: "profileStatus", label: "Profilstatus" },
  { key: "nextPaymentDate", label: "Nächstes Zahlungsdatum" },
  { key: "transactionId", label: "Transaktions-ID" },
  { key: "recurringPaymentId", label: "Abonnement-ID" },
  { key: "transactionType", label: "Transaktionstyp" },
];

const ADDRESS_FIELDS: DetailField<Group<"payerAddress">>[] = [
  { key: "name", label: "Name" },
  { key: "street", label: "Straße" },
  { key: "city", label: "Stadt" },
  { key: "state", label: "Bundesland" },
  { key: "postalCode", label: "Postleitzahl" },
  { key: "country", label: "Land" },
  { key: "countryCode", label: "Ländercode" },
  { key: "residenceCountry", label: "Wohnsitzland" },
  { key: "addressStatus", label: "Adressstatus" },
];

const ADDITIONAL_FIELDS: DetailField<Group<"additionalInfo">>[] = [
  { key: "transactionSubject", label: "Betreff" },
  { key: "timeCreated", label: "Erstellt (PayPal)" },
  { key: "verifySign", label: "Verifizierungssignatur" },
  { key: "ipnTrackId", label: "IPN-Tracking-ID" },
  { key: "notifyVersion", label: "IPN-Version" },
];

/** The seven groups of SPEC.md §3 "Transaction detail groups" as cards with German labels. */
export function TransactionDetailCards({ detail }: { detail: TransactionDetail }) {
  const payerFields: DetailField<Group<"payerInfo">>[] = [
    {
      key: "email",
      label: "E-Mail",
      render: (email) => <PayerEmailEditor transactionId={detail.transactionId} email={email} />,
    },
    { key: "originalEmail", label: "Ursprüngliche E-Mail" },
    { key: "firstName", label: "Vorname" },
    { key: "lastName", label: "Nachname" },
    { key: "payerId", label: "Zahler-ID" },
    { key: "payerStatus", label: "Zahlerstatus" },
  ];
  const paymentFields: DetailField<Group<"paymentDetails">>[] = [
    {
      key: "amount",
      label: "Betrag",
      format: (amount) =>
        formatMoney(amount, detail.paymentDetails.currency, { locale: "en-US", nonNumeric: "as-sent" }),
    },
    { key: "currency", label: "Währung" },
    { key: "tax", label: "Steuern" },
    { key: "fee", label: "Gebühr" },
    { key: "paymentType", label: "Zahlungsart" },
    { key: "paymentStatus", label: "Zahlungsstatus" },
    { key: "outstandingBalance", label: "Offener Betrag" },
    { key: "shipping", label: "Versand" },
  ];
  const cancelled = isCancelledProfile(detail.subscriptionData.profileStatus);

  return (
    <div className="space-y-6">
      <p className="text-sm text-muted-foreground">Eingegangen am {formatGermanDayTime(detail.receivedAt)}</p>
      {!detail.hasMatchingUser && (
        <p
          role="status"
          className="flex items-center gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700"
        >
          <TriangleAlert className="h-4 w-4 shrink-0" aria-hidden="true" />
          {NO_MATCHING_USER_TEXT}
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-2">
        <DetailCard title={CARD_TITLES.payerInfo} group={detail.payerInfo} fields={payerFields} />
        <DetailCard title={CARD_TITLES.productInfo} group={detail.productInfo} fields={PRODUCT_FIELDS} />
        <DetailCard title={CARD_TITLES.paymentDetails} group={detail.paymentDetails} fields={paymentFields} />
        <DetailCard
          title={CARD_TITLES.subscriptionData}
          group={detail.subscriptionData}
          fields={SUBSCRIPTION_FIELDS}
          notice={
            cancelled && (
              <div className="rounded-md border border-red-300 bg-red-50 p-3 font-semibold text-red-700">
                {SUBSCRIPTION_CANCELLED_TEXT}
              </div>
            )
          }
        />
        <DetailCard title={CARD_TITLES.merchantInfo} group={detail.merchantInfo} fields={MERCHANT_FIELDS} />
        <DetailCard title={CARD_TITLES.payerAddress} group={detail.payerAddress} fields={ADDRESS_FIELDS} />
        <DetailCard title={CARD_TITLES.additionalInfo} group={detail.additionalInfo} fields={ADDITIONAL_FIELDS} />
      </div>
    </div>
  );
}
