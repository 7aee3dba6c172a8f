/** A numeric column as the wire writes it: "12.5", not "12.5000"; null stays null (unlimited). */
export const decimal = (v: string | null) => (v === null ? null : String(Number(v)));
