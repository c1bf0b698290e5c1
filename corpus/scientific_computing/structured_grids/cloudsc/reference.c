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

static const double RG = 9.80665, RD = 287.0596736665907, RCPD = 1004.7088578330674,
                    RETV = 0.6077667316114637, RLVTT = 2500800.0, RLSTT = 2834500.0,
                    RTT = 273.16, RV = 461.5249933083879;
static const double R2ES = 380.1608703442847, R3LES = 17.502, R3IES = 22.587, R4LES = 32.19,
                    R4IES = -0.7, R5LES = 4217.45694, R5IES = 6185.67582,
                    R5ALVCP = 10497584.68169531, R5ALSCP = 17451123.253362577,
                    RALVDCP = 2489.0792795374246, RALSDCP = 2821.2152982440934,
                    RALFDCP = 332.1360187066693, RTWAT = 273.16, RTICE = 250.16000000000003,
                    RTWAT_RTICE_R = 0.043478260869565216, RKOOP1 = 2.583, RKOOP2 = 0.0048116;
static const double RAMID = 0.8, RCLDIFF = 3e-06, RCLDIFF_CONVI = 7.0, RAMIN = 1e-08,
                    RLMIN = 1e-08, RDENSREF = 1.0, RTAUMEL = 7200.0, RVICE = 0.13, RVRAIN = 4.0,
                    RVSNOW = 1.0, RTHOMO = 235.16000000000003, RCOVPMIN = 0.1,
                    RKOOPTAU = 10800.0, RCLDTOPCF = 0.01, RCLCRIT_LAND = 0.00055,
                    RCLCRIT_SEA = 0.00025, RLCRITSNOW = 3e-05, RPRECRHMAX = 0.7,
                    RVRFACTOR = 0.00509, RPECONS = 5.54725619859993e-05, RICEINIT = 1e-12,
                    RDEPLIQREFRATE = 0.1, RDEPLIQREFDEPTH = 500.0, RSNOWLIN1 = 0.001,
                    RSNOWLIN2 = 0.03;
static const double KK_AAU = 1350.0, KK_BAUQ = 2.47, KK_BAUN = -1.79, KK_AAC = 67.0,
                    KK_BAC = 1.15, KK_NUM_LAND = 300.0, KK_NUM_SEA = 50.0,
                    FAC1 = 4146.902789847063, FAC2 = 0.5555555555555556, FZRAB = -0.66,
                    CONST1S = 3.6231880115136998e-06, CONST7S = 90363515.76351073,
                    CONST8S = 1.1756666666666666, CONST1R = 1.382300767579509,
                    CONST2R = 2143.2299120517614, CONST3R = 0.6349999999999998,
                    CONST4R = -0.20000000000000018, CONST5R = 8685252.965082133,
                    CONST6R = -4.8, CDENOM1 = 557000000000.0, CDENOM2 = 103000000.0,
                    CDENOM3 = 204.0;
static const double TW1 = 1329.31, TW2 = 0.0074615, TW3 = 85000.0, TW4 = 40.637, TW5 = 275.0;
static const double EPSILON = 1e-14, EPSEC = 1e-14;

static double sq(double x) { return x * x; }
static double foeliq(double t) { return R2ES * exp(R3LES * (t - RTT) / (t - R4LES)); }
static double foeice(double t) { return R2ES * exp(R3IES * (t - RTT) / (t - R4IES)); }
/* liquid fraction of the mixed phase: 0 below RTICE, 1 above RTWAT */
static double foealfa(double t) {
  return fmin(1.0, sq((fmax(RTICE, fmin(RTWAT, t)) - RTICE) * RTWAT_RTICE_R));
}

void cloudsc_fp64(const int32_t *restrict ktype, const int32_t *restrict ldcum,
                  const double *restrict pa, const double *restrict pclv,
                  double *restrict pcovptot, const double *restrict pdeta,
                  double *restrict pfcqlng, double *restrict pfcqnng, double *restrict pfcqrng,
                  double *restrict pfcqsng, double *restrict pfhpsl, double *restrict pfhpsn,
                  double *restrict pfplsl, double *restrict pfplsn, double *restrict pfsqif,
                  double *restrict pfsqitur, double *restrict pfsqlf, double *restrict pfsqltur,
                  double *restrict pfsqrf, double *restrict pfsqsf, const double *restrict phrlw,
                  const double *restrict phrsw, const double *restrict plsm,
                  const double *restrict plu, double *restrict plude,
                  const double *restrict pmfd, const double *restrict pmfu,
                  const double *restrict pq, double *restrict prainfrac_toprfz,
                  const double *restrict psnde, const double *restrict psupsat,
                  const double *restrict psurf, const double *restrict pt,
                  const double *restrict pvervel, const double *restrict pvfi,
                  const double *restrict pvfl, double *restrict tendency_loc_a,
                  double *restrict tendency_loc_cld, double *restrict tendency_loc_q,
                  double *restrict tendency_loc_t, const double *restrict tendency_tmp_a,
                  const double *restrict tendency_tmp_cld,
                  const double *restrict tendency_tmp_q,
                  const double *restrict tendency_tmp_t, const int64_t KLON,
                  const int64_t NLEV, const double ptsphy, uint8_t *restrict workspace,
                  const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t N = NLEV, NH = NLEV + 1;
  const double zqtmst = 1.0 / ptsphy;
  const double zrdcp = RD / RCPD;
  const double zrg_r = 1.0 / RG;
  const double zrldcp = 1.0 / (RALSDCP - RALVDCP);
  const int iphase[NCLV] = {1, 2, 1, 2, 0};
  const int imelt[NCLV] = {QI, QR, QS, QR, -1};
  const double zvqx[NCLV] = {0.0, RVICE, RVRAIN, RVSNOW, 0.0};

  /* one column of scratch, reused for every column */
  double *buf = (double *)calloc((size_t)(40 * NH), sizeof(double));
  double *paph = buf, *pap = buf + NH, *ztp1 = buf + 2 * NH, *za = buf + 3 * NH,
         *zaorig = buf + 4 * NH, *zfoealfa = buf + 5 * NH, *zqsmix = buf + 6 * NH,
         *zqsliq = buf + 7 * NH, *zqsice = buf + 8 * NH, *zfoeewmt = buf + 9 * NH,
         *zfoeew = buf + 10 * NH, *zfoeeliqt = buf + 11 * NH, *zli = buf + 12 * NH,
         *zliqfrac = buf + 13 * NH, *zicefrac = buf + 14 * NH;
  double *zqx[NCLV], *zqx0[NCLV], *zlneg[NCLV], *zqxn2d[NCLV], *zpfplsx[NCLV];
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
      double c = 0.0;
      paph[0] = 0.0;
      for (int64_t k = 0; k < N; k++) {
        c += A2(pdeta, k);
        paph[k + 1] = c;
      }
      const double ps = psurf[jl];
      for (int64_t k = 1; k <= N; k++) paph[k] = ps * (paph[k] / c);
      for (int64_t k = 0; k < N; k++) pap[k] = 0.5 * (paph[k] + paph[k + 1]);
    }
    for (int64_t k = 0; k < N; k++) {
      A2(tendency_loc_t, k) = 0.0;
      A2(tendency_loc_q, k) = 0.0;
      A2(tendency_loc_a, k) = 0.0;
      for (int m = 0; m < NCLV - 1; m++) A3(tendency_loc_cld, m, k) = 0.0;
      A2(pcovptot, k) = 0.0;
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
        zlneg[m][k] = 0.0;
        zqxn2d[m][k] = 0.0;
      }
    }
    for (int m = 0; m < NCLV; m++)
      for (int64_t k = 0; k <= N; k++) zpfplsx[m][k] = 0.0;
    prainfrac_toprfz[jl] = 0.0;

    /* tidy up: remove condensate below RLMIN or in cloud fraction below RAMIN */
    for (int64_t k = 0; k < N; k++) {
      if (zqx[QL][k] + zqx[QI][k] < RLMIN || za[k] < RAMIN) {
        zlneg[QL][k] += zqx[QL][k];
        double zqadj = zqx[QL][k] * zqtmst;
        A2(tendency_loc_q, k) += zqadj;
        A2(tendency_loc_t, k) -= RALVDCP * zqadj;
        zqx[QV][k] += zqx[QL][k];
        zqx[QL][k] = 0.0;
        zlneg[QI][k] += zqx[QI][k];
        zqadj = zqx[QI][k] * zqtmst;
        A2(tendency_loc_q, k) += zqadj;
        A2(tendency_loc_t, k) -= RALSDCP * zqadj;
        zqx[QV][k] += zqx[QI][k];
        zqx[QI][k] = 0.0;
        za[k] = 0.0;
      }
    }
    for (int m = 0; m < NCLV - 1; m++)
      for (int64_t k = 0; k < N; k++) {
        if (zqx[m][k] < RLMIN) {
          zlneg[m][k] += zqx[m][k];
          const double zqadj = zqx[m][k] * zqtmst;
          A2(tendency_loc_q, k) += zqadj;
          if (iphase[m] == 1) A2(tendency_loc_t, k) -= RALVDCP * zqadj;
          if (iphase[m] == 2) A2(tendency_loc_t, k) -= RALSDCP * zqadj;
          zqx[QV][k] += zqx[m][k];
          zqx[m][k] = 0.0;
        }
      }

    /* saturation quantities at the start of the step */
    for (int64_t k = 0; k < N; k++) {
      const double t = ztp1[k];
      zfoealfa[k] = foealfa(t);
      zfoeewmt[k] =
          fmin(R2ES * (zfoealfa[k] * exp(R3LES * (t - RTT) / (t - R4LES)) +
                       (1.0 - zfoealfa[k]) * exp(R3IES * (t - RTT) / (t - R4IES))) /
                   pap[k],
               0.5);
      zqsmix[k] = zfoeewmt[k] / (1.0 - RETV * zfoeewmt[k]);
      const double zalfa = t > RTT ? 1.0 : 0.0;
      zfoeew[k] = fmin((zalfa * foeliq(t) + (1.0 - zalfa) * foeice(t)) / pap[k], 0.5);
      zqsice[k] = zfoeew[k] / (1.0 - RETV * zfoeew[k]);
      zfoeeliqt[k] = fmin(foeliq(t) / pap[k], 0.5);
      zqsliq[k] = zfoeeliqt[k] / (1.0 - RETV * zfoeeliqt[k]);
      za[k] = fmax(0.0, fmin(1.0, za[k]));
      zli[k] = zqx[QL][k] + zqx[QI][k];
      if (zli[k] > RLMIN) {
        zliqfrac[k] = zqx[QL][k] / zli[k];
        zicefrac[k] = 1.0 - zliqfrac[k];
      } else {
        zliqfrac[k] = 0.0;
        zicefrac[k] = 0.0;
      }
    }

    double zanewm1 = 0.0, zcovptot = 0.0, zcovpmax = 0.0, zcldtopdist = 0.0;
    double zqxnm1[NCLV] = {0.0, 0.0, 0.0, 0.0, 0.0};
    for (int64_t k = NCLDTOP - 1; k < N; k++) {
      const double t = ztp1[k];
      const double zqv = zqx[QV][k];
      double zqxfg[NCLV], zsolqa[NCLV][NCLV], zsolqb[NCLV][NCLV];
      double zfallsrce[NCLV], zfallsink[NCLV], zconvsrce[NCLV], zconvsink[NCLV],
          zpsupsatsrce[NCLV];
      for (int m = 0; m < NCLV; m++) {
        zqxfg[m] = zqx[m][k];
        zfallsrce[m] = zfallsink[m] = zconvsrce[m] = zconvsink[m] = zpsupsatsrce[m] = 0.0;
        for (int n = 0; n < NCLV; n++) zsolqa[m][n] = zsolqb[m][n] = 0.0;
      }
      double zqpretot = 0.0, zlfinalsum = 0.0, zsolab = 0.0, zsolac = 0.0;
      const double zdp = paph[k + 1] - paph[k];
      const double zgdp = RG / zdp;
      const double zrho = pap[k] / (RD * t);
      const double zdtgdp = ptsphy * zgdp;
      const double zrdtgdp = zdp * (1.0 / (ptsphy * RG));

      /* saturation derivatives and evaporation limits */
      const double zfacw = R5LES / sq(t - R4LES);
    
      const double zfaci0 = R5IES / sq(t - R4IES);
      double zcor = 1.0 / (1.0 - RETV * zfoeew[k]);
      const double zdqsicedt = zfaci0 * zcor * zqsice[k];
      const double zcorqsice = 1.0 + RALSDCP * zdqsicedt;
      const double zalfaw = zfoealfa[k];
      const double zfac0 = zalfaw * zfacw + (1.0 - zalfaw) * zfaci0;
      zcor = 1.0 / (1.0 - RETV * zfoeewmt[k]);
      const double zdqsmixdt = zfac0 * zcor * zqsmix[k];
      const double zcorqsmix =
          1.0 + (zfoealfa[k] * RALVDCP + (1.0 - zfoealfa[k]) * RALSDCP) * zdqsmixdt;
      const double zevaplimmix = fmax((zqsmix[k] - zqv) / zcorqsmix, 0.0);
      double ztmpa = 1.0 / fmax(za[k], EPSEC);
      double zliqcld = zqx[QL][k] * ztmpa;
      double zicecld = zqx[QI][k] * ztmpa;
      double zlicld = zliqcld + zicecld;
      if (zqx[QL][k] < RLMIN) {
        zsolqa[QL][QV] = zqx[QL][k];
        zsolqa[QV][QL] = -zqx[QL][k];
      }
      if (zqx[QI][k] < RLMIN) {
        zsolqa[QI][QV] = zqx[QI][k];
        zsolqa[QV][QI] = -zqx[QI][k];
      }

      /* ice supersaturation adjustment */
      const double zfokoop = fmin(RKOOP1 - RKOOP2 * t, foeliq(t) / foeice(t));
      double zfac, zfaci;
      if (t >= RTT) {
        zfac = 1.0;
        zfaci = 1.0;
      } else {
        zfac = za[k] + zfokoop * (1.0 - za[k]);
        zfaci = ptsphy / RKOOPTAU;
      }
      double zsupsat;
      if (za[k] > 1.0 - RAMIN) {
        zsupsat = fmax((zqv - zfac * zqsice[k]) / zcorqsice, 0.0);
      } else {
        const double zqp1env = (zqv - za[k] * zqsice[k]) / fmax(1.0 - za[k], EPSILON);
        zsupsat = fmax((1.0 - za[k]) * (zqp1env - zfac * zqsice[k]) / zcorqsice, 0.0);
      }
      if (zsupsat > EPSEC) {
        const int p = t > RTHOMO ? QL : QI;
        zsolqa[QV][p] += zsupsat;
        zsolqa[p][QV] -= zsupsat;
        zqxfg[p] += zsupsat;
        zsolac = (1.0 - za[k]) * zfaci;
      }
      if (A2(psupsat, k) > EPSEC) {
        const int p = t > RTHOMO ? QL : QI;
        zsolqa[p][p] += A2(psupsat, k);
        zpsupsatsrce[p] = A2(psupsat, k);
        zqxfg[p] += A2(psupsat, k);
        zsolac = (1.0 - za[k]) * zfaci;
      }

      /* detrainment from convection */
      if (k < N - 1) {
        A2(plude, k) = A2(plude, k) * zdtgdp;
        if (ldcum[jl] != 0 && A2(plude, k) > RLMIN && A2(plu, k + 1) > EPSEC) {
          zsolac += A2(plude, k) / A2(plu, k + 1);
          zconvsrce[QL] = zalfaw * A2(plude, k);
          zconvsrce[QI] = (1.0 - zalfaw) * A2(plude, k);
          zsolqa[QL][QL] += zconvsrce[QL];
          zsolqa[QI][QI] += zconvsrce[QI];
        } else {
          A2(plude, k) = 0.0;
        }
        if (ldcum[jl] != 0) zsolqa[QS][QS] += A2(psnde, k) * zdtgdp;
      }

      /* subsidence source from the level above */
      if (k > NCLDTOP - 1) {
        const double zmf = fmax(0.0, (A2(pmfu, k) + A2(pmfd, k)) * zdtgdp);
        double zacust = zmf * zanewm1;
        double zlcust[2];
        for (int m = 0; m < 2; m++) { /* liquid and ice: not falling, phase > 0 */
          zlcust[m] = zmf * zqxnm1[m];
          zconvsrce[m] += zlcust[m];
        }
        const double zdtdp = zrdcp * 0.5 * (ztp1[k - 1] + ztp1[k]) / paph[k];
        const double zdtforc = zdtdp * (pap[k] - pap[k - 1]);
        const double zdqs = zanewm1 * zdtforc * zdqsmixdt;
        for (int m = 0; m < 2; m++) {
          double zlfinal = fmax(0.0, zlcust[m] - zdqs);
          const double zevap = fmin(zlcust[m] - zlfinal, zevaplimmix);
          zlfinal = zlcust[m] - zevap;
          zlfinalsum += zlfinal;
          zsolqa[m][m] += zlcust[m];
          zsolqa[m][QV] += zevap;
          zsolqa[QV][m] -= zevap;
        }
        if (zlfinalsum < EPSEC) zacust = 0.0;
        zsolac += zacust;
      }
      /* subsidence sink to the level below */
      if (k < N - 1) {
        const double zmfdn = fmax(0.0, (A2(pmfu, k + 1) + A2(pmfd, k + 1)) * zdtgdp);
        zsolab += zmfdn;
        zsolqb[QL][QL] += zmfdn;
        zsolqb[QI][QI] += zmfdn;
        zconvsink[QL] = zmfdn;
        zconvsink[QI] = zmfdn;
      }

      /* erosion of clouds by turbulent mixing */
      double zldifdt = RCLDIFF * ptsphy;
      if (ktype[jl] > 0 && A2(plude, k) > EPSEC) zldifdt = RCLDIFF_CONVI * zldifdt;
      if (zli[k] > EPSEC) {
        const double ze = zldifdt * fmax(zqsmix[k] - zqv, 0.0);
        double zleros = za[k] * ze;
        zleros = fmin(zleros, zevaplimmix);
        zleros = fmin(zleros, zli[k]);
        const double zaeros = zleros / zlicld;
        zsolac -= zaeros;
        zsolqa[QL][QV] += zliqfrac[k] * zleros;
        zsolqa[QV][QL] -= zliqfrac[k] * zleros;
        zsolqa[QI][QV] += zicefrac[k] * zleros;
        zsolqa[QV][QI] -= zicefrac[k] * zleros;
      }

      /* condensation / evaporation from large-scale forcing */
      const double zdtdp = zrdcp * t / pap[k];
      const double zdpmxdt = zdp * zqtmst;
      const double zmfdn2 = k < N - 1 ? A2(pmfu, k + 1) + A2(pmfd, k + 1) : 0.0;
      double zwtot = A2(pvervel, k) + 0.5 * RG * (A2(pmfu, k) + A2(pmfd, k) + zmfdn2);
      zwtot = fmin(zdpmxdt, fmax(-zdpmxdt, zwtot));
      const double zzzdt = A2(phrsw, k) + A2(phrlw, k);
      const double zdtdiab =
          fmin(zdpmxdt * zdtdp, fmax(-zdpmxdt * zdtdp, zzzdt)) * ptsphy + RALFDCP * 0.0;
      const double zdtforc = zdtdp * zwtot * ptsphy + zdtdiab;
      double tt = fmax(t + zdtforc, 160.0);
      double qs_cur = zqsmix[k];
      const double zqp = 1.0 / pap[k];
      for (int it = 0; it < 2; it++) {
        const double zalfa1 = foealfa(tt);
        double zqsat = R2ES *
                       (zalfa1 * exp(R3LES * (tt - RTT) / (tt - R4LES)) +
                        (1.0 - zalfa1) * exp(R3IES * (tt - RTT) / (tt - R4IES))) *
                       zqp;
        zqsat = fmin(0.5, zqsat);
        const double zc = 1.0 / (1.0 - RETV * zqsat);
        zqsat = zqsat * zc;
        const double zcond =
            (qs_cur - zqsat) / (1.0 + zqsat * zc *
                                          (zalfa1 * R5ALVCP * (1.0 / sq(tt - R4LES)) +
                                           (1.0 - zalfa1) * R5ALSCP * (1.0 / sq(tt - R4IES))));
        tt = tt + (zalfa1 * RALVDCP + (1.0 - zalfa1) * RALSDCP) * zcond;
        qs_cur = qs_cur - zcond;
      }
      const double zdqs = qs_cur - zqsmix[k];

      if (zdqs > 0.0) { /* evaporation of cloud */
        double zlevap = za[k] * fmin(zdqs, zlicld);
        zlevap = fmin(zlevap, zevaplimmix);
        zlevap = fmin(zlevap, fmax(zqsmix[k] - zqv, 0.0));
        zsolqa[QL][QV] += zliqfrac[k] * zlevap;
        zsolqa[QV][QL] -= zliqfrac[k] * zlevap;
        zsolqa[QI][QV] += zicefrac[k] * zlevap;
        zsolqa[QV][QI] -= zicefrac[k] * zlevap;
      }
      if (za[k] > EPSEC && zdqs <= -RLMIN) { /* condensation in existing cloud */
        double zlcond1 = fmax(-zdqs, 0.0);
        double zcdmax;
        if (za[k] > 0.99) {
          const double zc = 1.0 / (1.0 - RETV * zqsmix[k]);
          const double zalfa1 = foealfa(t);
          zcdmax = (zqv - zqsmix[k]) /
                   (1.0 + zc * zqsmix[k] *
                              (zalfa1 * R5ALVCP * (1.0 / sq(t - R4LES)) +
                               (1.0 - zalfa1) * R5ALSCP * (1.0 / sq(t - R4IES))));
        } else {
          zcdmax = (zqv - za[k] * zqsmix[k]) / za[k];
        }
        zlcond1 = fmax(fmin(zlcond1, zcdmax), 0.0);
        zlcond1 = za[k] * zlcond1;
        if (zlcond1 < RLMIN) zlcond1 = 0.0;
        const int p = t > RTHOMO ? QL : QI;
        zsolqa[QV][p] += zlcond1;
        zsolqa[p][QV] -= zlcond1;
        zqxfg[p] += zlcond1;
      }
      if (zdqs <= -RLMIN && za[k] < 1.0 - EPSEC) { /* growth of cloud fraction */
        const double zsigk = pap[k] / paph[N];
        const double zrhc = zsigk > 0.8 ? RAMID + (1.0 - RAMID) * sq((zsigk - 0.8) / 0.2) : RAMID;
        double zqe = (zqv - za[k] * zqsice[k]) / fmax(EPSEC, 1.0 - za[k]);
        zqe = fmax(0.0, zqe);
        const double zf = t >= RTT ? 1.0 : zfokoop;
        if (zqe >= zrhc * zqsice[k] * zf && zqe < zqsice[k] * zf) {
          double zacond =
              -(1.0 - za[k]) * zf * zdqs / fmax(2.0 * (zf * zqsice[k] - zqe), EPSEC);
          zacond = fmin(zacond, 1.0 - za[k]);
          double zlcond2 = -zf * zdqs * 0.5 * zacond;
          const double zzdl = 2.0 * (zf * zqsice[k] - zqe) / fmax(EPSEC, 1.0 - za[k]);
          if (zf * zdqs < -zzdl) {
            const double zlcondlim = (za[k] - 1.0) * zf * zdqs - zf * zqsice[k] + zqv;
            zlcond2 = fmin(zlcond2, zlcondlim);
          }
          zlcond2 = fmax(zlcond2, 0.0);
          if (zlcond2 < RLMIN || 1.0 - za[k] < EPSEC) {
            zlcond2 = 0.0;
            zacond = 0.0;
          }
          if (zlcond2 == 0.0) zacond = 0.0;
          zsolac += zacond;
          const int p = t > RTHOMO ? QL : QI;
          zsolqa[QV][p] += zlcond2;
          zsolqa[p][QV] -= zlcond2;
          zqxfg[p] += zlcond2;
        }
      }

      /* growth of ice by vapour deposition */
      if (za[k - 1] < RCLDTOPCF && za[k] >= RCLDTOPCF)
        zcldtopdist = 0.0;
      else
        zcldtopdist = zcldtopdist + zdp / (zrho * RG);
      if (t < RTT && zqxfg[QL] > RLMIN) {
        const double zvpice = foeice(t) * RV / RD;
        const double zvpliq = zvpice * zfokoop;
        const double zicenuclei = 1000.0 * exp(12.96 * (zvpliq - zvpice) / zvpliq - 0.639);
        const double zadd = RLSTT * (RLSTT / (RV * t) - 1.0) / (0.024 * t);
        const double zbdd = RV * t * pap[k] / (2.21 * zvpice);
        const double zcvds = 7.8 * pow(zicenuclei / zrho, 0.666) * (zvpliq - zvpice) /
                             (8.87 * (zadd + zbdd) * zvpice);
        const double zice0 = fmax(zicecld, zicenuclei * RICEINIT / zrho);
        const double zinew = pow(0.666 * zcvds * ptsphy + pow(zice0, 0.666), 1.5);
        double zdepos = fmax(za[k] * (zinew - zice0), 0.0);
        zdepos = fmin(zdepos, zqxfg[QL]);
        const double zinfactor = fmin(zicenuclei / 15000.0, 1.0);
        zdepos = zdepos * fmin(zinfactor + (1.0 - zinfactor) *
                                               (RDEPLIQREFRATE + zcldtopdist / RDEPLIQREFDEPTH),
                               1.0);
        zsolqa[QL][QI] += zdepos;
        zsolqa[QI][QL] -= zdepos;
        zqxfg[QI] += zdepos;
        zqxfg[QL] -= zdepos;
      }

      ztmpa = 1.0 / fmax(za[k], EPSEC);
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
      double zcovpclr, zraincld, zsnowcld;
      if (zqpretot > EPSEC) {
        double c = 1.0 - (1.0 - zcovptot) * (1.0 - fmax(za[k], za[k - 1])) /
                             (1.0 - fmin(za[k - 1], 1.0 - 1e-06));
        c = fmax(c, RCOVPMIN);
        zcovptot = c;
        zcovpclr = fmax(0.0, c - za[k]);
        zraincld = zqxfg[QR] / c;
        zsnowcld = zqxfg[QS] / c;
        zcovpmax = fmax(c, zcovpmax);
      } else {
        zcovptot = 0.0;
        zcovpclr = 0.0;
        zraincld = 0.0;
        zsnowcld = 0.0;
        zcovpmax = 0.0;
      }

      /* autoconversion of ice to snow */
      if (t <= RTT && zicecld > EPSEC) {
        const double zzco = ptsphy * RSNOWLIN1 * exp(RSNOWLIN2 * (t - RTT));
        const double zsnowaut = zzco * (1.0 - exp(-sq(zicecld / RLCRITSNOW)));
        zsolqb[QI][QS] += zsnowaut;
      }
      /* warm rain: autoconversion and accretion (Khairoutdinov and Kogan) */
      if (zliqcld > EPSEC) {
        const int land = plsm[jl] > 0.5;
        const double zconst = land ? KK_NUM_LAND : KK_NUM_SEA;
        const double zlcrit = land ? RCLCRIT_LAND : RCLCRIT_SEA;
        double zrainaut = 0.0, zrainacc = 0.0;
        if (zliqcld > zlcrit) {
          zrainaut = 1.5 * za[k] * ptsphy * KK_AAU * pow(zliqcld, KK_BAUQ) * pow(zconst, KK_BAUN);
          zrainaut = fmin(zrainaut, zqxfg[QL]);
          if (zrainaut < EPSEC) zrainaut = 0.0;
          zrainacc = 2.0 * za[k] * ptsphy * KK_AAC * pow(zliqcld * zraincld, KK_BAC);
          zrainacc = fmin(zrainacc, zqxfg[QL]);
          if (zrainacc < EPSEC) zrainacc = 0.0;
        }
        const int p = t <= RTT ? QS : QR;
        zsolqa[QL][p] += zrainaut;
        zsolqa[QL][p] += zrainacc;
        zsolqa[p][QL] -= zrainaut;
        zsolqa[p][QL] -= zrainacc;
      }
      /* riming of snow */
      if (t <= RTT && zliqcld > EPSEC && zsnowcld > EPSEC && zcovptot > 0.01) {
        const double zfallcorr = pow(RDENSREF / zrho, 0.4);
        double zsnowrime = 0.3 * zcovptot * ptsphy * CONST7S * zfallcorr *
                           pow(zrho * zsnowcld * CONST1S, CONST8S);
        zsnowrime = fmin(zsnowrime, 1.0);
        zsolqb[QL][QS] += zsnowrime;
      }

      /* melting of ice and snow */
      const double zicetot = zqxfg[QI] + zqxfg[QS];
      double zmeltmax = 0.0;
      if (zicetot > EPSEC && t > RTT) {
        const double zsubsat = fmax(zqsice[k] - zqv, 0.0);
        const double ztdmtw0 =
            t - RTT - zsubsat * (TW1 + TW2 * (pap[k] - TW3) - TW4 * (t - TW5));
        const double zcons1 = fabs(ptsphy * (1.0 + 0.5 * ztdmtw0) / RTAUMEL);
        zmeltmax = fmax(ztdmtw0 * zcons1 * zrldcp, 0.0);
      }
      for (int m = 0; m < NCLV; m++) {
        if (iphase[m] == 2 && zmeltmax > EPSEC && zicetot > EPSEC) {
          const double zalfa = zqxfg[m] / zicetot;
          const double zmelt = fmin(zqxfg[m], zalfa * zmeltmax);
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
          const double zqpt = fmax(zqx[QS][k] + zqx[QR][k], EPSEC);
          prainfrac_toprfz[jl] = zqx[QR][k] / zqpt;
        }
        if (t < RTT) {
          double zfrzmax;
          if (prainfrac_toprfz[jl] > 0.8) {
            const double zlambda = pow(FAC1 / (zrho * zqx[QR][k]), FAC2);
            const double ztemp = FZRAB * (t - RTT);
            const double zfrz =
                ptsphy * (CONST5R / zrho) * (exp(ztemp) - 1.0) * pow(zlambda, CONST6R);
            zfrzmax = fmax(zfrz, 0.0);
          } else {
            const double zcons1 = fabs(ptsphy * (1.0 + 0.5 * (RTT - t)) / RTAUMEL);
            zfrzmax = fmax((RTT - t) * zcons1 * zrldcp, 0.0);
          }
          if (zfrzmax > EPSEC) {
            const double zfrz = fmin(zqx[QR][k], zfrzmax);
            zsolqa[QR][QS] += zfrz;
            zsolqa[QS][QR] -= zfrz;
          }
        }
      }
      /* homogeneous freezing of cloud liquid */
      {
        const double zfrzmax = fmax((RTHOMO - t) * zrldcp, 0.0);
        if (zfrzmax > EPSEC && zqxfg[QL] > EPSEC) {
          const double zfrz = fmin(zqxfg[QL], zfrzmax);
          zsolqa[QL][QI] += zfrz;
          zsolqa[QI][QL] -= zfrz;
        }
      }

      /* evaporation of rain (Abel and Boutle) */
      {
        double zzrh = RPRECRHMAX + (1.0 - RPRECRHMAX) * zcovpmax / fmax(EPSEC, 1.0 - za[k]);
        zzrh = fmin(fmax(zzrh, RPRECRHMAX), 1.0);
        zzrh = fmin(0.8, zzrh);
        const double zqe = fmax(0.0, fmin(zqv, zqsliq[k]));
        if (zcovpclr > EPSEC && zqxfg[QR] > EPSEC && zqe < zzrh * zqsliq[k]) {
          const double zpreclr = zqxfg[QR] / zcovptot;
          const double zfallcorr = pow(RDENSREF / zrho, 0.4);
          const double zesatliq = RV / RD * foeliq(t);
          const double zlambda = pow(FAC1 / (zrho * zpreclr), FAC2);
          const double zevap_denom = CDENOM1 * zesatliq - CDENOM2 * t * zesatliq +
                                     CDENOM3 * pow(t, 3.0) * pap[k];
          const double zcorr2 = pow(t / 273.0, 1.5) * 393.0 / (t + 120.0);
          const double zsubsat = fmax(zzrh * zqsliq[k] - zqe, 0.0);
          const double zbeta = 0.5 / zqsliq[k] * sq(t) * zesatliq * CONST1R *
                               (zcorr2 / zevap_denom) *
                               (0.78 / pow(zlambda, CONST4R) +
                                CONST2R * pow(zrho * zfallcorr, 0.5) /
                                    (pow(zcorr2, 0.5) * pow(zlambda, CONST3R)));
          const double zdenom = 1.0 + zbeta * ptsphy;
          const double zdpevap = zcovpclr * zbeta * ptsphy * zsubsat / zdenom;
          const double zevap = fmin(zdpevap, zqxfg[QR]);
          zsolqa[QR][QV] += zevap;
          zsolqa[QV][QR] -= zevap;
          zcovptot = fmax(RCOVPMIN,
                          zcovptot - fmax(0.0, (zcovptot - za[k]) * zevap / zqxfg[QR]));
          zqxfg[QR] -= zevap;
        }
      }
      /* sublimation of snow */
      {
        double zzrh = RPRECRHMAX + (1.0 - RPRECRHMAX) * zcovpmax / fmax(EPSEC, 1.0 - za[k]);
        zzrh = fmin(fmax(zzrh, RPRECRHMAX), 1.0);
        double zqe = (zqv - za[k] * zqsice[k]) / fmax(EPSEC, 1.0 - za[k]);
        zqe = fmax(0.0, fmin(zqe, zqsice[k]));
        if (zcovpclr > EPSEC && zqxfg[QS] > EPSEC && zqe < zzrh * zqsice[k]) {
          const double zcp = zcovptot * zdtgdp;
          const double zcpd = zcp > 0.0 ? fmax(zcp, EPSILON) : -fmax(-zcp, EPSILON);
          const double zpreclr = zqxfg[QS] * zcovpclr / zcpd;
          const double zbeta1 =
              sqrt(pap[k] / paph[N]) / RVRFACTOR * zpreclr / fmax(zcovpclr, EPSEC);
          const double zbeta = RG * RPECONS * pow(fmax(zbeta1, 0.0), 0.5777);
          const double zdenom = 1.0 + zbeta * ptsphy * zcorqsice;
          const double zdpr = zcovpclr * zbeta * (zqsice[k] - zqe) / zdenom * zdp * zrg_r;
          const double zdpevap = zdpr * zdtgdp;
          const double zevap = fmin(zdpevap, zqxfg[QS]);
          zsolqa[QS][QV] += zevap;
          zsolqa[QV][QS] -= zevap;
          zcovptot = fmax(RCOVPMIN,
                          zcovptot - fmax(0.0, (zcovptot - za[k]) * zevap / zqxfg[QS]));
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
      double zanew = (za[k] + zsolac) / (1.0 + zsolab);
      zanew = fmin(zanew, 1.0);
      if (zanew < RAMIN) zanew = 0.0;
      const double zda = zanew - zaorig[k];
      zanewm1 = zanew;

      /* scale the sinks so that no species goes negative */
      for (int m = 0; m < NCLV; m++) {
        double psum = 0.0;
        for (int n = 0; n < NCLV; n++) psum += zsolqa[n][m];
        const double zsinksum = 0.0 - psum;
        const double zmm = fmax(zqx[m][k], EPSEC);
        const double zrr = fmax(zsinksum, zmm);
        const double zratio = zmm / zrr;
        for (int n = 0; n < NCLV; n++) {
          if (zsolqa[n][m] < 0.0) {
            zsolqa[n][m] *= zratio;
            zsolqa[m][n] *= zratio;
          }
        }
      }

      /* implicit solve: A x = b, A[m][m] = 1 + fallsink + sum_o solqb[m][o],
       * A[m][n] = -solqb[n][m]; Gaussian elimination without pivoting */
      double amat[NCLV][NCLV], zqxn[NCLV];
      for (int m = 0; m < NCLV; m++) {
        for (int n = 0; n < NCLV; n++) amat[m][n] = -zsolqb[n][m];
        double d = 1.0 + zfallsink[m];
        for (int o = 0; o < NCLV; o++) d += zsolqb[m][o];
        amat[m][m] = d;
        double zexplicit = 0.0;
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
          zqxn[m] = 0.0;
        }
      }
      for (int m = 0; m < NCLV; m++) {
        zqxnm1[m] = zqxn[m];
        zqxn2d[m][k] = zqxn[m];
        zpfplsx[m][k + 1] = zfallsink[m] * zqxn[m] * zrdtgdp;
      }
      zqpretot = zpfplsx[QS][k + 1] + zpfplsx[QR][k + 1];
      if (zqpretot < EPSEC) zcovptot = 0.0;

      /* tendencies */
      for (int m = 0; m < NCLV - 1; m++) {
        const double zfluxq = zpsupsatsrce[m] + zconvsrce[m] + zfallsrce[m] -
                              (zfallsink[m] + zconvsink[m]) * zqxn[m];
        const double lat = iphase[m] == 1 ? RALVDCP : RALSDCP;
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
    A2(pfsqlf, 0) = A2(pfsqif, 0) = A2(pfsqrf, 0) = A2(pfsqsf, 0) = 0.0;
    A2(pfcqlng, 0) = A2(pfcqnng, 0) = A2(pfcqrng, 0) = A2(pfcqsng, 0) = 0.0;
    A2(pfsqltur, 0) = A2(pfsqitur, 0) = 0.0;
    for (int64_t k = 0; k < N; k++) {
      const double zgdph_r = -zrg_r * (paph[k + 1] - paph[k]) * zqtmst;
      const double alfaw = zfoealfa[k];
      const double lf = A2(pfsqlf, k), fi = A2(pfsqif, k), cl = A2(pfcqlng, k),
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
                (1.0 - alfaw) * A2(plude, k)) *
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
