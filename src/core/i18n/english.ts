/**
 * "1 route", "3 routes": a count and its noun for texts that exist in English only (the server's log, `kpp parse`'s
 * report), which the catalog's counted forms (`tn`) do not hold.
 */
export function countedEn(count: number, one: string, other = `${one}s`): string {
  return `${count} ${count === 1 ? one : other}`;
}
