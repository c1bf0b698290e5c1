#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* CLOUDSC (ECMWF IFS cloud microphysics), one call over KLON independent columns of NLEV
 * levels. Species: 0 liquid, 1 ice, 2 rain, 3 snow, 4 vapour. Constants are upstream's. */

#define NCLV 5
#define QL 0
#define QI 1
#define QR 2
#define QS 3
#define QV 4
#define NCLDTOP 15 /* first level (1-based) of the microphysics loop */

static const real RG = (real)9.80665, RD = (real)287.0596736665907, RCPD = (real)1004.7088578330674,
                    RETV = (real)0.6077667316114637, RLVTT = (real)2500800.0, RLSTT = (real)2834500.0,
                    RTT = (real)273.16, RV = (real)461.5249933083879;
static const real R2ES = (real)380.1608703442847, R3LES = (real)17.502, R3IES = (real)22.587, R4LES = (real)32.19,
                    R4IES = -(real)0.7, R5LES = (real)4217.45694, R5IES = (real)6185.67582,
                    R5ALVCP = (real)10497584.68169531, R5ALSCP = (real)17451123.253362577,
                    RALVDCP = (real)2489.0792795374246, RALSDCP = (real)2821.2152982440934,
                    RALFDCP = (real)332.1360187066693, RTWAT = (real)273.16, RTICE = (real)250.16000000000003,
                    RTWAT_RTICE_R = (real)0.043478260869565216, RKOOP1 = (real)2.583, RKOOP2 = (real)0.0048116;
static const real RAMID = (real)0.8, RCLDIFF = (real)3e-06, RCLDIFF_CONVI = (real)7.0, RAMIN = (real)1e-08,
                    RLMIN = (real)1e-08, RDENSREF = (real)1.0, RTAUMEL = (real)7200.0, RVICE = (real)0.13, RVRAIN = (real)4.0,
                    RVSNOW = (real)1.0, RTHOMO = (real)235.16000000000003, RCOVPMIN = (real)0.1,
                    RKOOPTAU = (real)10800.0, RCLDTOPCF = (real)0.01, RCLCRIT_LAND = (real)0.00055,
                    RCLCRIT_SEA = (real)0.00025, RLCRITSNOW = (real)3e-05, RPRECRHMAX = (real)0.7,
                    RVRFACTOR = (real)0.00509, RPECONS = (real)5.54725619859993e-05, RICEINIT = (real)1e-12,
                    RDEPLIQREFRATE = (real)0.1, RDEPLIQREFDEPTH = (real)500.0, RSNOWLIN1 = (real)0.001,
                    RSNOWLIN2 = (real)0.03;
static const real KK_AAU = (real)1350.0, KK_BAUQ = (real)2.47, KK_BAUN = -(real)1.79, KK_AAC = (real)67.0,
                    KK_BAC = (real)1.15, KK_NUM_LAND = (real)300.0, KK_NUM_SEA = (real)50.0,
                    FAC1 = (real)4146.902789847063, FAC2 = (real)0.5555555555555556, FZRAB = -(real)0.66,
                    CONST1S = (real)3.6231880115136998e-06, CONST7S = (real)90363515.76351073,
                    CONST8S = (real)1.1756666666666666, CONST1R = (real)1.382300767579509,
                    CONST2R = (real)2143.2299120517614, CONST3R = (real)0.6349999999999998,
                    CONST4R = -(real)0.20000000000000018, CONST5R = (real)8685252.965082133,
                    CONST6R = -(real)4.8, CDENOM1 = (real)557000000000.0, CDENOM2 = (real)103000000.0,
                    CDENOM3 = (real)204.0;
static const real TW1 = (real)1329.31, TW2 = (real)0.0074615, TW3 = (real)85000.0, TW4 = (real)40.637, TW5 = (real)275.0;
static const real EPSILON = (real)1e-14, EPSEC = (real)1e-14;

static real sq(real x) { return x * x; }
static real foeliq(real t) { return R2ES * exp(R3LES * (t - RTT) / (t - R4LES)); }
static real foeice(real t) { return R2ES * exp(R3IES * (t - RTT) / (t - R4IES)); }
/* liquid fraction of the mixed phase: 0 below RTICE, 1 above RTWAT */
static real foealfa(real t) {
  return fmin((real)1.0, sq((fmax(RTICE, fmin(RTWAT, t)) - RTICE) * RTWAT_RTICE_R));
}

void HPCAB_KERNEL(cloudsc)(const int32_t *restrict ktype, const int32_t *restrict ldcum,
                           const real *restrict pa, const real *restrict pclv,
                           real *restrict pcovptot, const real *restrict pdeta,
                           real *restrict pfcqlng, real *restrict pfcqnng, real *restrict pfcqrng,
                           real *restrict pfcqsng, real *restrict pfhpsl, real *restrict pfhpsn,
                           real *restrict pfplsl, real *restrict pfplsn, real *restrict pfsqif,
                           real *restrict pfsqitur, real *restrict pfsqlf, real *restrict pfsqltur,
                           real *restrict pfsqrf, real *restrict pfsqsf, const real *restrict phrlw,
                           const real *restrict phrsw, const real *restrict plsm,
                           const real *restrict plu, real *restrict plude,
                           const real *restrict pmfd, const real *restrict pmfu,
                           const real *restrict pq, real *restrict prainfrac_toprfz,
                           const real *restrict psnde, const real *restrict psupsat,
                           const real *restrict psurf, const real *restrict pt,
                           const real *restrict pvervel, const real *restrict pvfi,
                           const real *restrict pvfl, real *restrict tendency_loc_a,
                           real *restrict tendency_loc_cld, real *restrict tendency_loc_q,
                           real *restrict tendency_loc_t, const real *restrict tendency_tmp_a,
                           const real *restrict tendency_tmp_cld,
                           const real *restrict tendency_tmp_q,
                           const real *restrict tendency_tmp_t, const int64_t KLON,
                           const int64_t NLEV, const real ptsphy, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t N = NLEV, NH = NLEV + 1;
  const real zqtmst = (real)1.0 / ptsphy;
  const real zrdcp = RD / RCPD;
  const real zrg_r = (real)1.0 / RG;
  const real zrldcp = (real)1.0 / (RALSDCP - RALVDCP);
  const int iphase[NCLV] = {1, 2, 1, 2, 0};
  const int imelt[NCLV] = {QI, QR, QS, QR, -1};
  const real zvqx[NCLV] = {(real)0.0, RVICE, RVRAIN, RVSNOW, (real)0.0};

  /* one column of scratch, reused for every column */
  real *buf = (real *)calloc((size_t)(40 * NH), sizeof(real));
  real *paph = buf, *pap = buf + NH, *ztp1 = buf + 2 * NH, *za = buf + 3 * NH,
         *zaorig = buf + 4 * NH, *zfoealfa = buf + 5 * NH, *zqsmix = buf + 6 * NH,
         *zqsliq = buf + 7 * NH, *zqsice = buf + 8 * NH, *zfoeewmt = buf + 9 * NH,
         *zfoeew = buf + 10 * NH, *zfoeeliqt = buf + 11 * NH, *zli = buf + 12 * NH,
         *zliqfrac = buf + 13 * NH, *zicefrac = buf + 14 * NH;
  real *zqx[NCLV], *zqx0[NCLV], *zlneg[NCLV], *zqxn2d[NCLV], *zpfplsx[NCLV];
  for (int m = 0; m < NCLV; m++) {
    zqx[m] = buf + (15 + m) * NH;
    zqx0[m] = buf + (20 + m) * NH;
    zlneg[m] = buf + (25 + m) * NH;
    zqxn2d[m] = buf + (30 + m) * NH;
    zpfplsx[m] = buf + (35 + m) * NH;
  }

  for (int64_t jl = 0; jl < KLON; jl++) {
#define A2(arr, k) arr[(k) * KLON + jl]
#define A3(arr, m, k) arr[((m) * N + (k)) * KLON + jl]
    /* pressure: half levels from the cumulative layer weights, full levels the midpoints */
    {
      real c = (real)0.0;
      paph[0] = (real)0.0;
      for (int64_t k = 0; k < N; k++) {
        c += A2(pdeta, k);
        paph[k + 1] = c;
      }
      const real ps = psurf[jl];
      for (int64_t k = 1; k <= N; k++) paph[k] = ps * (paph[k] / c);
      for (int64_t k = 0; k < N; k++) pap[k] = (real)0.5 * (paph[k] + paph[k + 1]);
    }
    for (int64_t k = 0; k < N; k++) {
      A2(tendency_loc_t, k) = (real)0.0;
      A2(tendency_loc_q, k) = (real)0.0;
      A2(tendency_loc_a, k) = (real)0.0;
      for (int m = 0; m < NCLV - 1; m++) A3(tendency_loc_cld, m, k) = (real)0.0;
      A2(pcovptot, k) = (real)0.0;
      ztp1[k] = A2(pt, k) + ptsphy * A2(tendency_tmp_t, k);
      zqx[QV][k] = A2(pq, k) + ptsphy * A2(tendency_tmp_q, k);
      zqx0[QV][k] = zqx[QV][k];
      za[k] = A2(pa, k) + ptsphy * A2(tendency_tmp_a, k);
      zaorig[k] = za[k];
      for (int m = 0; m < NCLV - 1; m++) {
        zqx[m][k] = A3(pclv, m, k) + ptsphy * A3(tendency_tmp_cld, m, k);
        zqx0[m][k] = zqx[m][k];
      }
      for (int m = 0; m < NCLV; m++) {
        zlneg[m][k] = (real)0.0;
        zqxn2d[m][k] = (real)0.0;
      }
    }
    for (int m = 0; m < NCLV; m++)
      for (int64_t k = 0; k <= N; k++) zpfplsx[m][k] = (real)0.0;
    prainfrac_toprfz[jl] = (real)0.0;

    /* tidy up: remove condensate below RLMIN or in cloud fraction below RAMIN */
    for (int64_t k = 0; k < N; k++) {
      if (zqx[QL][k] + zqx[QI][k] < RLMIN || za[k] < RAMIN) {
        zlneg[QL][k] += zqx[QL][k];
        real zqadj = zqx[QL][k] * zqtmst;
        A2(tendency_loc_q, k) += zqadj;
        A2(tendency_loc_t, k) -= RALVDCP * zqadj;
        zqx[QV][k] += zqx[QL][k];
        zqx[QL][k] = (real)0.0;
        zlneg[QI][k] += zqx[QI][k];
        zqadj = zqx[QI][k] * zqtmst;
        A2(tendency_loc_q, k) += zqadj;
        A2(tendency_loc_t, k) -= RALSDCP * zqadj;
        zqx[QV][k] += zqx[QI][k];
        zqx[QI][k] = (real)0.0;
        za[k] = (real)0.0;
      }
    }
    for (int m = 0; m < NCLV - 1; m++)
      for (int64_t k = 0; k < N; k++) {
        if (zqx[m][k] < RLMIN) {
          zlneg[m][k] += zqx[m][k];
          const real zqadj = zqx[m][k] * zqtmst;
          A2(tendency_loc_q, k) += zqadj;
          if (iphase[m] == 1) A2(tendency_loc_t, k) -= RALVDCP * zqadj;
          if (iphase[m] == 2) A2(tendency_loc_t, k) -= RALSDCP * zqadj;
          zqx[QV][k] += zqx[m][k];
          zqx[m][k] = (real)0.0;
        }
      }

    /* saturation quantities at the start of the step */
    for (int64_t k = 0; k < N; k++) {
      const real t = ztp1[k];
      zfoealfa[k] = foealfa(t);
      zfoeewmt[k] =
          fmin(R2ES * (zfoealfa[k] * exp(R3LES * (t - RTT) / (t - R4LES)) +
                       ((real)1.0 - zfoealfa[k]) * exp(R3IES * (t - RTT) / (t - R4IES))) /
                   pap[k],
               (real)0.5);
      zqsmix[k] = zfoeewmt[k] / ((real)1.0 - RETV * zfoeewmt[k]);
      const real zalfa = t > RTT ? (real)1.0 : (real)0.0;
      zfoeew[k] = fmin((zalfa * foeliq(t) + ((real)1.0 - zalfa) * foeice(t)) / pap[k], (real)0.5);
      zqsice[k] = zfoeew[k] / ((real)1.0 - RETV * zfoeew[k]);
      zfoeeliqt[k] = fmin(foeliq(t) / pap[k], (real)0.5);
      zqsliq[k] = zfoeeliqt[k] / ((real)1.0 - RETV * zfoeeliqt[k]);
      za[k] = fmax((real)0.0, fmin((real)1.0, za[k]));
      zli[k] = zqx[QL][k] + zqx[QI][k];
      if (zli[k] > RLMIN) {
        zliqfrac[k] = zqx[QL][k] / zli[k];
        zicefrac[k] = (real)1.0 - zliqfrac[k];
      } else {
        zliqfrac[k] = (real)0.0;
        zicefrac[k] = (real)0.0;
      }
    }

    real zanewm1 = (real)0.0, zcovptot = (real)0.0, zcovpmax = (real)0.0, zcldtopdist = (real)0.0;
    real zqxnm1[NCLV] = {(real)0.0, (real)0.0, (real)0.0, (real)0.0, (real)0.0};
    for (int64_t k = NCLDTOP - 1; k < N; k++) {
      const real t = ztp1[k];
      const real zqv = zqx[QV][k];
      real zqxfg[NCLV], zsolqa[NCLV][NCLV], zsolqb[NCLV][NCLV];
      real zfallsrce[NCLV], zfallsink[NCLV], zconvsrce[NCLV], zconvsink[NCLV],
          zpsupsatsrce[NCLV];
      for (int m = 0; m < NCLV; m++) {
        zqxfg[m] = zqx[m][k];
        zfallsrce[m] = zfallsink[m] = zconvsrce[m] = zconvsink[m] = zpsupsatsrce[m] = (real)0.0;
        for (int n = 0; n < NCLV; n++) zsolqa[m][n] = zsolqb[m][n] = (real)0.0;
      }
      real zqpretot = (real)0.0, zlfinalsum = (real)0.0, zsolab = (real)0.0, zsolac = (real)0.0;
      const real zdp = paph[k + 1] - paph[k];
      const real zgdp = RG / zdp;
      const real zrho = pap[k] / (RD * t);
      const real zdtgdp = ptsphy * zgdp;
      const real zrdtgdp = zdp * ((real)1.0 / (ptsphy * RG));

      /* saturation derivatives and evaporation limits */
      const real zfacw = R5LES / sq(t - R4LES);
    
      const real zfaci0 = R5IES / sq(t - R4IES);
      real zcor = (real)1.0 / ((real)1.0 - RETV * zfoeew[k]);
      const real zdqsicedt = zfaci0 * zcor * zqsice[k];
      const real zcorqsice = (real)1.0 + RALSDCP * zdqsicedt;
      const real zalfaw = zfoealfa[k];
      const real zfac0 = zalfaw * zfacw + ((real)1.0 - zalfaw) * zfaci0;
      zcor = (real)1.0 / ((real)1.0 - RETV * zfoeewmt[k]);
      const real zdqsmixdt = zfac0 * zcor * zqsmix[k];
      const real zcorqsmix =
          (real)1.0 + (zfoealfa[k] * RALVDCP + ((real)1.0 - zfoealfa[k]) * RALSDCP) * zdqsmixdt;
      const real zevaplimmix = fmax((zqsmix[k] - zqv) / zcorqsmix, (real)0.0);
      real ztmpa = (real)1.0 / fmax(za[k], EPSEC);
      real zliqcld = zqx[QL][k] * ztmpa;
      real zicecld = zqx[QI][k] * ztmpa;
      real zlicld = zliqcld + zicecld;
      if (zqx[QL][k] < RLMIN) {
        zsolqa[QL][QV] = zqx[QL][k];
        zsolqa[QV][QL] = -zqx[QL][k];
      }
      if (zqx[QI][k] < RLMIN) {
        zsolqa[QI][QV] = zqx[QI][k];
        zsolqa[QV][QI] = -zqx[QI][k];
      }

      /* ice supersaturation adjustment */
      const real zfokoop = fmin(RKOOP1 - RKOOP2 * t, foeliq(t) / foeice(t));
      real zfac, zfaci;
      if (t >= RTT) {
        zfac = (real)1.0;
        zfaci = (real)1.0;
      } else {
        zfac = za[k] + zfokoop * ((real)1.0 - za[k]);
        zfaci = ptsphy / RKOOPTAU;
      }
      real zsupsat;
      if (za[k] > (real)1.0 - RAMIN) {
        zsupsat = fmax((zqv - zfac * zqsice[k]) / zcorqsice, (real)0.0);
      } else {
        const real zqp1env = (zqv - za[k] * zqsice[k]) / fmax((real)1.0 - za[k], EPSILON);
        zsupsat = fmax(((real)1.0 - za[k]) * (zqp1env - zfac * zqsice[k]) / zcorqsice, (real)0.0);
      }
      if (zsupsat > EPSEC) {
        const int p = t > RTHOMO ? QL : QI;
        zsolqa[QV][p] += zsupsat;
        zsolqa[p][QV] -= zsupsat;
        zqxfg[p] += zsupsat;
        zsolac = ((real)1.0 - za[k]) * zfaci;
      }
      if (A2(psupsat, k) > EPSEC) {
        const int p = t > RTHOMO ? QL : QI;
        zsolqa[p][p] += A2(psupsat, k);
        zpsupsatsrce[p] = A2(psupsat, k);
        zqxfg[p] += A2(psupsat, k);
        zsolac = ((real)1.0 - za[k]) * zfaci;
      }

      /* detrainment from convection */
      if (k < N - 1) {
        A2(plude, k) = A2(plude, k) * zdtgdp;
        if (ldcum[jl] != 0 && A2(plude, k) > RLMIN && A2(plu, k + 1) > EPSEC) {
          zsolac += A2(plude, k) / A2(plu, k + 1);
          zconvsrce[QL] = zalfaw * A2(plude, k);
          zconvsrce[QI] = ((real)1.0 - zalfaw) * A2(plude, k);
          zsolqa[QL][QL] += zconvsrce[QL];
          zsolqa[QI][QI] += zconvsrce[QI];
        } else {
          A2(plude, k) = (real)0.0;
        }
        if (ldcum[jl] != 0) zsolqa[QS][QS] += A2(psnde, k) * zdtgdp;
      }

      /* subsidence source from the level above */
      if (k > NCLDTOP - 1) {
        const real zmf = fmax((real)0.0, (A2(pmfu, k) + A2(pmfd, k)) * zdtgdp);
        real zacust = zmf * zanewm1;
        real zlcust[2];
        for (int m = 0; m < 2; m++) { /* liquid and ice: not falling, phase > 0 */
          zlcust[m] = zmf * zqxnm1[m];
          zconvsrce[m] += zlcust[m];
        }
        const real zdtdp = zrdcp * (real)0.5 * (ztp1[k - 1] + ztp1[k]) / paph[k];
        const real zdtforc = zdtdp * (pap[k] - pap[k - 1]);
        const real zdqs = zanewm1 * zdtforc * zdqsmixdt;
        for (int m = 0; m < 2; m++) {
          real zlfinal = fmax((real)0.0, zlcust[m] - zdqs);
          const real zevap = fmin(zlcust[m] - zlfinal, zevaplimmix);
          zlfinal = zlcust[m] - zevap;
          zlfinalsum += zlfinal;
          zsolqa[m][m] += zlcust[m];
          zsolqa[m][QV] += zevap;
          zsolqa[QV][m] -= zevap;
        }
        if (zlfinalsum < EPSEC) zacust = (real)0.0;
        zsolac += zacust;
      }
      /* subsidence sink to the level below */
      if (k < N - 1) {
        const real zmfdn = fmax((real)0.0, (A2(pmfu, k + 1) + A2(pmfd, k + 1)) * zdtgdp);
        zsolab += zmfdn;
        zsolqb[QL][QL] += zmfdn;
        zsolqb[QI][QI] += zmfdn;
        zconvsink[QL] = zmfdn;
        zconvsink[QI] = zmfdn;
      }

      /* erosion of clouds by turbulent mixing */
      real zldifdt = RCLDIFF * ptsphy;
      if (ktype[jl] > 0 && A2(plude, k) > EPSEC) zldifdt = RCLDIFF_CONVI * zldifdt;
      if (zli[k] > EPSEC) {
        const real ze = zldifdt * fmax(zqsmix[k] - zqv, (real)0.0);
        real zleros = za[k] * ze;
        zleros = fmin(zleros, zevaplimmix);
        zleros = fmin(zleros, zli[k]);
        const real zaeros = zleros / zlicld;
        zsolac -= zaeros;
        zsolqa[QL][QV] += zliqfrac[k] * zleros;
        zsolqa[QV][QL] -= zliqfrac[k] * zleros;
        zsolqa[QI][QV] += zicefrac[k] * zleros;
        zsolqa[QV][QI] -= zicefrac[k] * zleros;
      }

      /* condensation / evaporation from large-scale forcing */
      const real zdtdp = zrdcp * t / pap[k];
      const real zdpmxdt = zdp * zqtmst;
      const real zmfdn2 = k < N - 1 ? A2(pmfu, k + 1) + A2(pmfd, k + 1) : (real)0.0;
      real zwtot = A2(pvervel, k) + (real)0.5 * RG * (A2(pmfu, k) + A2(pmfd, k) + zmfdn2);
      zwtot = fmin(zdpmxdt, fmax(-zdpmxdt, zwtot));
      const real zzzdt = A2(phrsw, k) + A2(phrlw, k);
      const real zdtdiab =
          fmin(zdpmxdt * zdtdp, fmax(-zdpmxdt * zdtdp, zzzdt)) * ptsphy + RALFDCP * (real)0.0;
      const real zdtforc = zdtdp * zwtot * ptsphy + zdtdiab;
      real tt = fmax(t + zdtforc, (real)160.0);
      real qs_cur = zqsmix[k];
      const real zqp = (real)1.0 / pap[k];
      for (int it = 0; it < 2; it++) {
        const real zalfa1 = foealfa(tt);
        real zqsat = R2ES *
                       (zalfa1 * exp(R3LES * (tt - RTT) / (tt - R4LES)) +
                        ((real)1.0 - zalfa1) * exp(R3IES * (tt - RTT) / (tt - R4IES))) *
                       zqp;
        zqsat = fmin((real)0.5, zqsat);
        const real zc = (real)1.0 / ((real)1.0 - RETV * zqsat);
        zqsat = zqsat * zc;
        const real zcond =
            (qs_cur - zqsat) / ((real)1.0 + zqsat * zc *
                                          (zalfa1 * R5ALVCP * ((real)1.0 / sq(tt - R4LES)) +
                                           ((real)1.0 - zalfa1) * R5ALSCP * ((real)1.0 / sq(tt - R4IES))));
        tt = tt + (zalfa1 * RALVDCP + ((real)1.0 - zalfa1) * RALSDCP) * zcond;
        qs_cur = qs_cur - zcond;
      }
      const real zdqs = qs_cur - zqsmix[k];

      if (zdqs > (real)0.0) { /* evaporation of cloud */
        real zlevap = za[k] * fmin(zdqs, zlicld);
        zlevap = fmin(zlevap, zevaplimmix);
        zlevap = fmin(zlevap, fmax(zqsmix[k] - zqv, (real)0.0));
        zsolqa[QL][QV] += zliqfrac[k] * zlevap;
        zsolqa[QV][QL] -= zliqfrac[k] * zlevap;
        zsolqa[QI][QV] += zicefrac[k] * zlevap;
        zsolqa[QV][QI] -= zicefrac[k] * zlevap;
      }
      if (za[k] > EPSEC && zdqs <= -RLMIN) { /* condensation in existing cloud */
        real zlcond1 = fmax(-zdqs, (real)0.0);
        real zcdmax;
        if (za[k] > (real)0.99) {
          const real zc = (real)1.0 / ((real)1.0 - RETV * zqsmix[k]);
          const real zalfa1 = foealfa(t);
          zcdmax = (zqv - zqsmix[k]) /
                   ((real)1.0 + zc * zqsmix[k] *
                              (zalfa1 * R5ALVCP * ((real)1.0 / sq(t - R4LES)) +
                               ((real)1.0 - zalfa1) * R5ALSCP * ((real)1.0 / sq(t - R4IES))));
        } else {
          zcdmax = (zqv - za[k] * zqsmix[k]) / za[k];
        }
        zlcond1 = fmax(fmin(zlcond1, zcdmax), (real)0.0);
        zlcond1 = za[k] * zlcond1;
        if (zlcond1 < RLMIN) zlcond1 = (real)0.0;
        const int p = t > RTHOMO ? QL : QI;
        zsolqa[QV][p] += zlcond1;
        zsolqa[p][QV] -= zlcond1;
        zqxfg[p] += zlcond1;
      }
      if (zdqs <= -RLMIN && za[k] < (real)1.0 - EPSEC) { /* growth of cloud fraction */
        const real zsigk = pap[k] / paph[N];
        const real zrhc = zsigk > (real)0.8 ? RAMID + ((real)1.0 - RAMID) * sq((zsigk - (real)0.8) / (real)0.2) : RAMID;
        real zqe = (zqv - za[k] * zqsice[k]) / fmax(EPSEC, (real)1.0 - za[k]);
        zqe = fmax((real)0.0, zqe);
        const real zf = t >= RTT ? (real)1.0 : zfokoop;
        if (zqe >= zrhc * zqsice[k] * zf && zqe < zqsice[k] * zf) {
          real zacond =
              -((real)1.0 - za[k]) * zf * zdqs / fmax((real)2.0 * (zf * zqsice[k] - zqe), EPSEC);
          zacond = fmin(zacond, (real)1.0 - za[k]);
          real zlcond2 = -zf * zdqs * (real)0.5 * zacond;
          const real zzdl = (real)2.0 * (zf * zqsice[k] - zqe) / fmax(EPSEC, (real)1.0 - za[k]);
          if (zf * zdqs < -zzdl) {
            const real zlcondlim = (za[k] - (real)1.0) * zf * zdqs - zf * zqsice[k] + zqv;
            zlcond2 = fmin(zlcond2, zlcondlim);
          }
          zlcond2 = fmax(zlcond2, (real)0.0);
          if (zlcond2 < RLMIN || (real)1.0 - za[k] < EPSEC) {
            zlcond2 = (real)0.0;
            zacond = (real)0.0;
          }
          if (zlcond2 == (real)0.0) zacond = (real)0.0;
          zsolac += zacond;
          const int p = t > RTHOMO ? QL : QI;
          zsolqa[QV][p] += zlcond2;
          zsolqa[p][QV] -= zlcond2;
          zqxfg[p] += zlcond2;
        }
      }

      /* growth of ice by vapour deposition */
      if (za[k - 1] < RCLDTOPCF && za[k] >= RCLDTOPCF)
        zcldtopdist = (real)0.0;
      else
        zcldtopdist = zcldtopdist + zdp / (zrho * RG);
      if (t < RTT && zqxfg[QL] > RLMIN) {
        const real zvpice = foeice(t) * RV / RD;
        const real zvpliq = zvpice * zfokoop;
        const real zicenuclei = (real)1000.0 * exp((real)12.96 * (zvpliq - zvpice) / zvpliq - (real)0.639);
        const real zadd = RLSTT * (RLSTT / (RV * t) - (real)1.0) / ((real)0.024 * t);
        const real zbdd = RV * t * pap[k] / ((real)2.21 * zvpice);
        const real zcvds = (real)7.8 * pow(zicenuclei / zrho, (real)0.666) * (zvpliq - zvpice) /
                             ((real)8.87 * (zadd + zbdd) * zvpice);
        const real zice0 = fmax(zicecld, zicenuclei * RICEINIT / zrho);
        const real zinew = pow((real)0.666 * zcvds * ptsphy + pow(zice0, (real)0.666), (real)1.5);
        real zdepos = fmax(za[k] * (zinew - zice0), (real)0.0);
        zdepos = fmin(zdepos, zqxfg[QL]);
        const real zinfactor = fmin(zicenuclei / (real)15000.0, (real)1.0);
        zdepos = zdepos * fmin(zinfactor + ((real)1.0 - zinfactor) *
                                               (RDEPLIQREFRATE + zcldtopdist / RDEPLIQREFDEPTH),
                               (real)1.0);
        zsolqa[QL][QI] += zdepos;
        zsolqa[QI][QL] -= zdepos;
        zqxfg[QI] += zdepos;
        zqxfg[QL] -= zdepos;
      }

      ztmpa = (real)1.0 / fmax(za[k], EPSEC);
      zliqcld = zqxfg[QL] * ztmpa;
      zicecld = zqxfg[QI] * ztmpa;
      zlicld = zliqcld + zicecld;
      (void)zlicld;

      /* sedimentation sources from above and sinks (ice, rain, snow) */
      for (int m = QI; m <= QS; m++) {
        if (k > NCLDTOP - 1) {
          zfallsrce[m] = zpfplsx[m][k] * zdtgdp;
          zsolqa[m][m] += zfallsrce[m];
          zqxfg[m] += zfallsrce[m];
          zqpretot += zqxfg[m];
        }
        zfallsink[m] = zdtgdp * (zvqx[m] * zrho);
      }

      /* precipitation cover */
      real zcovpclr, zraincld, zsnowcld;
      if (zqpretot > EPSEC) {
        real c = (real)1.0 - ((real)1.0 - zcovptot) * ((real)1.0 - fmax(za[k], za[k - 1])) /
                             ((real)1.0 - fmin(za[k - 1], (real)1.0 - (real)1e-06));
        c = fmax(c, RCOVPMIN);
        zcovptot = c;
        zcovpclr = fmax((real)0.0, c - za[k]);
        zraincld = zqxfg[QR] / c;
        zsnowcld = zqxfg[QS] / c;
        zcovpmax = fmax(c, zcovpmax);
      } else {
        zcovptot = (real)0.0;
        zcovpclr = (real)0.0;
        zraincld = (real)0.0;
        zsnowcld = (real)0.0;
        zcovpmax = (real)0.0;
      }

      /* autoconversion of ice to snow */
      if (t <= RTT && zicecld > EPSEC) {
        const real zzco = ptsphy * RSNOWLIN1 * exp(RSNOWLIN2 * (t - RTT));
        const real zsnowaut = zzco * ((real)1.0 - exp(-sq(zicecld / RLCRITSNOW)));
        zsolqb[QI][QS] += zsnowaut;
      }
      /* warm rain: autoconversion and accretion (Khairoutdinov and Kogan) */
      if (zliqcld > EPSEC) {
        const int land = plsm[jl] > (real)0.5;
        const real zconst = land ? KK_NUM_LAND : KK_NUM_SEA;
        const real zlcrit = land ? RCLCRIT_LAND : RCLCRIT_SEA;
        real zrainaut = (real)0.0, zrainacc = (real)0.0;
        if (zliqcld > zlcrit) {
          zrainaut = (real)1.5 * za[k] * ptsphy * KK_AAU * pow(zliqcld, KK_BAUQ) * pow(zconst, KK_BAUN);
          zrainaut = fmin(zrainaut, zqxfg[QL]);
          if (zrainaut < EPSEC) zrainaut = (real)0.0;
          zrainacc = (real)2.0 * za[k] * ptsphy * KK_AAC * pow(zliqcld * zraincld, KK_BAC);
          zrainacc = fmin(zrainacc, zqxfg[QL]);
          if (zrainacc < EPSEC) zrainacc = (real)0.0;
        }
        const int p = t <= RTT ? QS : QR;
        zsolqa[QL][p] += zrainaut;
        zsolqa[QL][p] += zrainacc;
        zsolqa[p][QL] -= zrainaut;
        zsolqa[p][QL] -= zrainacc;
      }
      /* riming of snow */
      if (t <= RTT && zliqcld > EPSEC && zsnowcld > EPSEC && zcovptot > (real)0.01) {
        const real zfallcorr = pow(RDENSREF / zrho, (real)0.4);
        real zsnowrime = (real)0.3 * zcovptot * ptsphy * CONST7S * zfallcorr *
                           pow(zrho * zsnowcld * CONST1S, CONST8S);
        zsnowrime = fmin(zsnowrime, (real)1.0);
        zsolqb[QL][QS] += zsnowrime;
      }

      /* melting of ice and snow */
      const real zicetot = zqxfg[QI] + zqxfg[QS];
      real zmeltmax = (real)0.0;
      if (zicetot > EPSEC && t > RTT) {
        const real zsubsat = fmax(zqsice[k] - zqv, (real)0.0);
        const real ztdmtw0 =
            t - RTT - zsubsat * (TW1 + TW2 * (pap[k] - TW3) - TW4 * (t - TW5));
        const real zcons1 = fabs(ptsphy * ((real)1.0 + (real)0.5 * ztdmtw0) / RTAUMEL);
        zmeltmax = fmax(ztdmtw0 * zcons1 * zrldcp, (real)0.0);
      }
      for (int m = 0; m < NCLV; m++) {
        if (iphase[m] == 2 && zmeltmax > EPSEC && zicetot > EPSEC) {
          const real zalfa = zqxfg[m] / zicetot;
          const real zmelt = fmin(zqxfg[m], zalfa * zmeltmax);
          const int im = imelt[m];
          zqxfg[m] -= zmelt;
          zqxfg[im] += zmelt;
          zsolqa[m][im] += zmelt;
          zsolqa[im][m] -= zmelt;
        }
      }

      /* freezing of rain */
      if (zqx[QR][k] > EPSEC) {
        if (t <= RTT && ztp1[k - 1] > RTT) {
          const real zqpt = fmax(zqx[QS][k] + zqx[QR][k], EPSEC);
          prainfrac_toprfz[jl] = zqx[QR][k] / zqpt;
        }
        if (t < RTT) {
          real zfrzmax;
          if (prainfrac_toprfz[jl] > (real)0.8) {
            const real zlambda = pow(FAC1 / (zrho * zqx[QR][k]), FAC2);
            const real ztemp = FZRAB * (t - RTT);
            const real zfrz =
                ptsphy * (CONST5R / zrho) * (exp(ztemp) - (real)1.0) * pow(zlambda, CONST6R);
            zfrzmax = fmax(zfrz, (real)0.0);
          } else {
            const real zcons1 = fabs(ptsphy * ((real)1.0 + (real)0.5 * (RTT - t)) / RTAUMEL);
            zfrzmax = fmax((RTT - t) * zcons1 * zrldcp, (real)0.0);
          }
          if (zfrzmax > EPSEC) {
            const real zfrz = fmin(zqx[QR][k], zfrzmax);
            zsolqa[QR][QS] += zfrz;
            zsolqa[QS][QR] -= zfrz;
          }
        }
      }
      /* homogeneous freezing of cloud liquid */
      {
        const real zfrzmax = fmax((RTHOMO - t) * zrldcp, (real)0.0);
        if (zfrzmax > EPSEC && zqxfg[QL] > EPSEC) {
          const real zfrz = fmin(zqxfg[QL], zfrzmax);
          zsolqa[QL][QI] += zfrz;
          zsolqa[QI][QL] -= zfrz;
        }
      }

      /* evaporation of rain (Abel and Boutle) */
      {
        real zzrh = RPRECRHMAX + ((real)1.0 - RPRECRHMAX) * zcovpmax / fmax(EPSEC, (real)1.0 - za[k]);
        zzrh = fmin(fmax(zzrh, RPRECRHMAX), (real)1.0);
        zzrh = fmin((real)0.8, zzrh);
        const real zqe = fmax((real)0.0, fmin(zqv, zqsliq[k]));
        if (zcovpclr > EPSEC && zqxfg[QR] > EPSEC && zqe < zzrh * zqsliq[k]) {
          const real zpreclr = zqxfg[QR] / zcovptot;
          const real zfallcorr = pow(RDENSREF / zrho, (real)0.4);
          const real zesatliq = RV / RD * foeliq(t);
          const real zlambda = pow(FAC1 / (zrho * zpreclr), FAC2);
          const real zevap_denom = CDENOM1 * zesatliq - CDENOM2 * t * zesatliq +
                                     CDENOM3 * pow(t, (real)3.0) * pap[k];
          const real zcorr2 = pow(t / (real)273.0, (real)1.5) * (real)393.0 / (t + (real)120.0);
          const real zsubsat = fmax(zzrh * zqsliq[k] - zqe, (real)0.0);
          const real zbeta = (real)0.5 / zqsliq[k] * sq(t) * zesatliq * CONST1R *
                               (zcorr2 / zevap_denom) *
                               ((real)0.78 / pow(zlambda, CONST4R) +
                                CONST2R * pow(zrho * zfallcorr, (real)0.5) /
                                    (pow(zcorr2, (real)0.5) * pow(zlambda, CONST3R)));
          const real zdenom = (real)1.0 + zbeta * ptsphy;
          const real zdpevap = zcovpclr * zbeta * ptsphy * zsubsat / zdenom;
          const real zevap = fmin(zdpevap, zqxfg[QR]);
          zsolqa[QR][QV] += zevap;
          zsolqa[QV][QR] -= zevap;
          zcovptot = fmax(RCOVPMIN,
                          zcovptot - fmax((real)0.0, (zcovptot - za[k]) * zevap / zqxfg[QR]));
          zqxfg[QR] -= zevap;
        }
      }
      /* sublimation of snow */
      {
        real zzrh = RPRECRHMAX + ((real)1.0 - RPRECRHMAX) * zcovpmax / fmax(EPSEC, (real)1.0 - za[k]);
        zzrh = fmin(fmax(zzrh, RPRECRHMAX), (real)1.0);
        real zqe = (zqv - za[k] * zqsice[k]) / fmax(EPSEC, (real)1.0 - za[k]);
        zqe = fmax((real)0.0, fmin(zqe, zqsice[k]));
        if (zcovpclr > EPSEC && zqxfg[QS] > EPSEC && zqe < zzrh * zqsice[k]) {
          const real zcp = zcovptot * zdtgdp;
          const real zcpd = zcp > (real)0.0 ? fmax(zcp, EPSILON) : -fmax(-zcp, EPSILON);
          const real zpreclr = zqxfg[QS] * zcovpclr / zcpd;
          const real zbeta1 =
              sqrt(pap[k] / paph[N]) / RVRFACTOR * zpreclr / fmax(zcovpclr, EPSEC);
          const real zbeta = RG * RPECONS * pow(fmax(zbeta1, (real)0.0), (real)0.5777);
          const real zdenom = (real)1.0 + zbeta * ptsphy * zcorqsice;
          const real zdpr = zcovpclr * zbeta * (zqsice[k] - zqe) / zdenom * zdp * zrg_r;
          const real zdpevap = zdpr * zdtgdp;
          const real zevap = fmin(zdpevap, zqxfg[QS]);
          zsolqa[QS][QV] += zevap;
          zsolqa[QV][QS] -= zevap;
          zcovptot = fmax(RCOVPMIN,
                          zcovptot - fmax((real)0.0, (zcovptot - za[k]) * zevap / zqxfg[QS]));
          zqxfg[QS] -= zevap;
        }
      }
      /* falling species below RLMIN go back to vapour */
      for (int m = QR; m <= QS; m++) {
        if (zqxfg[m] < RLMIN) {
          zsolqa[m][QV] += zqxfg[m];
          zsolqa[QV][m] -= zqxfg[m];
        }
      }

      /* new cloud fraction */
      real zanew = (za[k] + zsolac) / ((real)1.0 + zsolab);
      zanew = fmin(zanew, (real)1.0);
      if (zanew < RAMIN) zanew = (real)0.0;
      const real zda = zanew - zaorig[k];
      zanewm1 = zanew;

      /* scale the sinks so that no species goes negative */
      for (int m = 0; m < NCLV; m++) {
        real psum = (real)0.0;
        for (int n = 0; n < NCLV; n++) psum += zsolqa[n][m];
        const real zsinksum = (real)0.0 - psum;
        const real zmm = fmax(zqx[m][k], EPSEC);
        const real zrr = fmax(zsinksum, zmm);
        const real zratio = zmm / zrr;
        for (int n = 0; n < NCLV; n++) {
          if (zsolqa[n][m] < (real)0.0) {
            zsolqa[n][m] *= zratio;
            zsolqa[m][n] *= zratio;
          }
        }
      }

      /* implicit solve: A x = b, A[m][m] = 1 + fallsink + sum_o solqb[m][o],
       * A[m][n] = -solqb[n][m]; Gaussian elimination without pivoting */
      real amat[NCLV][NCLV], zqxn[NCLV];
      for (int m = 0; m < NCLV; m++) {
        for (int n = 0; n < NCLV; n++) amat[m][n] = -zsolqb[n][m];
        real d = (real)1.0 + zfallsink[m];
        for (int o = 0; o < NCLV; o++) d += zsolqb[m][o];
        amat[m][m] = d;
        real zexplicit = (real)0.0;
        for (int n = 0; n < NCLV; n++) zexplicit += zsolqa[n][m];
        zqxn[m] = zqx[m][k] + zexplicit;
      }
      for (int j = 0; j < NCLV - 1; j++)
        for (int i = j + 1; i < NCLV; i++) {
          amat[i][j] = amat[i][j] / amat[j][j];
          for (int c = j + 1; c < NCLV; c++) amat[i][c] -= amat[i][j] * amat[j][c];
        }
      for (int i = 1; i < NCLV; i++)
        for (int j = 0; j < i; j++) zqxn[i] -= amat[i][j] * zqxn[j];
      zqxn[NCLV - 1] = zqxn[NCLV - 1] / amat[NCLV - 1][NCLV - 1];
      for (int i = NCLV - 2; i >= 0; i--) {
        for (int j = i + 1; j < NCLV; j++) zqxn[i] -= amat[i][j] * zqxn[j];
        zqxn[i] = zqxn[i] / amat[i][i];
      }
      for (int m = 0; m < NCLV - 1; m++) {
        if (zqxn[m] < EPSEC) {
          zqxn[QV] += zqxn[m];
          zqxn[m] = (real)0.0;
        }
      }
      for (int m = 0; m < NCLV; m++) {
        zqxnm1[m] = zqxn[m];
        zqxn2d[m][k] = zqxn[m];
        zpfplsx[m][k + 1] = zfallsink[m] * zqxn[m] * zrdtgdp;
      }
      zqpretot = zpfplsx[QS][k + 1] + zpfplsx[QR][k + 1];
      if (zqpretot < EPSEC) zcovptot = (real)0.0;

      /* tendencies */
      for (int m = 0; m < NCLV - 1; m++) {
        const real zfluxq = zpsupsatsrce[m] + zconvsrce[m] + zfallsrce[m] -
                              (zfallsink[m] + zconvsink[m]) * zqxn[m];
        const real lat = iphase[m] == 1 ? RALVDCP : RALSDCP;
        A2(tendency_loc_t, k) += lat * (zqxn[m] - zqx[m][k] - zfluxq) * zqtmst;
        A3(tendency_loc_cld, m, k) += (zqxn[m] - zqx0[m][k]) * zqtmst;
      }
      A2(tendency_loc_q, k) += (zqxn[QV] - zqx[QV][k]) * zqtmst;
      A2(tendency_loc_a, k) += zda * zqtmst;
      A2(pcovptot, k) = zcovptot;
    }

    /* fluxes on half levels */
    for (int64_t k = 0; k <= N; k++) {
      A2(pfplsl, k) = zpfplsx[QR][k] + zpfplsx[QL][k];
      A2(pfplsn, k) = zpfplsx[QS][k] + zpfplsx[QI][k];
    }
    A2(pfsqlf, 0) = A2(pfsqif, 0) = A2(pfsqrf, 0) = A2(pfsqsf, 0) = (real)0.0;
    A2(pfcqlng, 0) = A2(pfcqnng, 0) = A2(pfcqrng, 0) = A2(pfcqsng, 0) = (real)0.0;
    A2(pfsqltur, 0) = A2(pfsqitur, 0) = (real)0.0;
    for (int64_t k = 0; k < N; k++) {
      const real zgdph_r = -zrg_r * (paph[k + 1] - paph[k]) * zqtmst;
      const real alfaw = zfoealfa[k];
      const real lf = A2(pfsqlf, k), fi = A2(pfsqif, k), cl = A2(pfcqlng, k),
                   cn = A2(pfcqnng, k);
      A2(pfsqlf, k + 1) =
          lf + (zqxn2d[QL][k] - zqx0[QL][k] + A2(pvfl, k) * ptsphy - alfaw * A2(plude, k)) *
                   zgdph_r;
      A2(pfcqlng, k + 1) = cl + zlneg[QL][k] * zgdph_r;
      A2(pfsqltur, k + 1) = A2(pfsqltur, k) + A2(pvfl, k) * ptsphy * zgdph_r;
      A2(pfsqrf, k + 1) = lf + (zqxn2d[QR][k] - zqx0[QR][k]) * zgdph_r;
      A2(pfcqrng, k + 1) = cl + zlneg[QR][k] * zgdph_r;
      A2(pfsqif, k + 1) =
          fi + (zqxn2d[QI][k] - zqx0[QI][k] + A2(pvfi, k) * ptsphy -
                ((real)1.0 - alfaw) * A2(plude, k)) *
                   zgdph_r;
      A2(pfcqnng, k + 1) = cn + zlneg[QI][k] * zgdph_r;
      A2(pfsqitur, k + 1) = A2(pfsqitur, k) + A2(pvfi, k) * ptsphy * zgdph_r;
      A2(pfsqsf, k + 1) = fi + (zqxn2d[QS][k] - zqx0[QS][k]) * zgdph_r;
      A2(pfcqsng, k + 1) = cn + zlneg[QS][k] * zgdph_r;
    }
    for (int64_t k = 0; k <= N; k++) {
      A2(pfhpsl, k) = -RLVTT * A2(pfplsl, k);
      A2(pfhpsn, k) = -RLSTT * A2(pfplsn, k);
    }
#undef A2
#undef A3
  }
  free(buf);
}
