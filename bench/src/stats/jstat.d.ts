// The part of jStat (https://jstat.github.io) the statistics use; the package ships no types.
declare module 'jstat' {
  const jStat: {
    studentt: {
      /** P(T ≤ x) for Student's t with `dof` degrees of freedom. */
      cdf(x: number, dof: number): number;
      /** The p-quantile of Student's t with `dof` degrees of freedom. */
      inv(p: number, dof: number): number;
    };
  };
  export default jStat;
}
