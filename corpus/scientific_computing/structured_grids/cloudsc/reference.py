import numpy as np

# CLOUDSC (ECMWF IFS cloud microphysics): one call over KLON independent columns of NLEV
# levels, vectorized over the columns. Species: 0 liquid, 1 ice, 2 rain, 3 snow, 4 vapour.
# Physical constants and switches are upstream's (dwarf-p-cloudsc reference configuration).
NCLV = 5
QL, QI, QR, QS, QV = 0, 1, 2, 3, 4
NCLDTOP = 15  # first level (1-based) of the microphysics loop

RG = 9.80665
RD = 287.0596736665907
RCPD = 1004.7088578330674
RETV = 0.6077667316114637
RLVTT = 2500800.0
RLSTT = 2834500.0
RTT = 273.16
RV = 461.5249933083879
R2ES = 380.1608703442847
R3LES = 17.502
R3IES = 22.587
R4LES = 32.19
R4IES = -0.7
R5LES = 4217.45694
R5IES = 6185.67582
R5ALVCP = 10497584.68169531
R5ALSCP = 17451123.253362577
RALVDCP = 2489.0792795374246
RALSDCP = 2821.2152982440934
RALFDCP = 332.1360187066693
RTWAT = 273.16
RTICE = 250.16000000000003
RTWAT_RTICE_R = 0.043478260869565216
RKOOP1 = 2.583
RKOOP2 = 0.0048116
RAMID = 0.8
RCLDIFF = 3e-06
RCLDIFF_CONVI = 7.0
RAMIN = 1e-08
RLMIN = 1e-08
RDENSREF = 1.0
RTAUMEL = 7200.0
RVICE = 0.13
RVRAIN = 4.0
RVSNOW = 1.0
RTHOMO = 235.16000000000003
RCOVPMIN = 0.1
RKOOPTAU = 10800.0
RCLDTOPCF = 0.01
RCLCRIT_LAND = 0.00055
RCLCRIT_SEA = 0.00025
RLCRITSNOW = 3e-05
RPRECRHMAX = 0.7
RVRFACTOR = 0.00509
RPECONS = 5.54725619859993e-05
RICEINIT = 1e-12
RDEPLIQREFRATE = 0.1
RDEPLIQREFDEPTH = 500.0
RSNOWLIN1 = 0.001
RSNOWLIN2 = 0.03
KK_AAU = 1350.0
KK_BAUQ = 2.47
KK_BAUN = -1.79
KK_AAC = 67.0
KK_BAC = 1.15
KK_NUM_LAND = 300.0
KK_NUM_SEA = 50.0
FAC1 = 4146.902789847063
FAC2 = 0.5555555555555556
FZRAB = -0.66
CONST1S = 3.6231880115136998e-06
CONST7S = 90363515.76351073
CONST8S = 1.1756666666666666
CONST1R = 1.382300767579509
CONST2R = 2143.2299120517614
CONST3R = 0.6349999999999998
CONST4R = -0.20000000000000018
CONST5R = 8685252.965082133
CONST6R = -4.8
CDENOM1 = 557000000000.0
CDENOM2 = 103000000.0
CDENOM3 = 204.0
TW1, TW2, TW3, TW4, TW5 = 1329.31, 0.0074615, 85000.0, 40.637, 275.0
EPSILON = 1e-14
EPSEC = 1e-14

IPHASE = (1, 2, 1, 2, 0)
IMELT = (QI, QR, QS, QR, -1)
VQX = (0.0, RVICE, RVRAIN, RVSNOW, 0.0)


def foeliq(t):
    return R2ES * np.exp(R3LES * (t - RTT) / (t - R4LES))


def foeice(t):
    return R2ES * np.exp(R3IES * (t - RTT) / (t - R4IES))


def foealfa(t):
    return np.minimum(1.0, ((np.maximum(RTICE, np.minimum(RTWAT, t)) - RTICE) * RTWAT_RTICE_R) ** 2)


def cloudsc(ktype, ldcum, pa, pclv, pcovptot, pdeta, pfcqlng, pfcqnng, pfcqrng, pfcqsng,
            pfhpsl, pfhpsn, pfplsl, pfplsn, pfsqif, pfsqitur, pfsqlf, pfsqltur, pfsqrf, pfsqsf,
            phrlw, phrsw, plsm, plu, plude, pmfd, pmfu, pq, prainfrac_toprfz, psnde, psupsat,
            psurf, pt, pvervel, pvfi, pvfl, tendency_loc_a, tendency_loc_cld, tendency_loc_q,
            tendency_loc_t, tendency_tmp_a, tendency_tmp_cld, tendency_tmp_q, tendency_tmp_t,
            KLON, NLEV, ptsphy):
    with np.errstate(all="ignore"):  # masked-out lanes may divide by zero; never selected
        _cloudsc(ktype, ldcum, pa, pclv, pcovptot, pdeta, pfcqlng, pfcqnng, pfcqrng, pfcqsng,
                 pfhpsl, pfhpsn, pfplsl, pfplsn, pfsqif, pfsqitur, pfsqlf, pfsqltur, pfsqrf,
                 pfsqsf, phrlw, phrsw, plsm, plu, plude, pmfd, pmfu, pq, prainfrac_toprfz,
                 psnde, psupsat, psurf, pt, pvervel, pvfi, pvfl, tendency_loc_a,
                 tendency_loc_cld, tendency_loc_q, tendency_loc_t, tendency_tmp_a,
                 tendency_tmp_cld, tendency_tmp_q, tendency_tmp_t, KLON, NLEV, ptsphy)


def _cloudsc(ktype, ldcum, pa, pclv, pcovptot, pdeta, pfcqlng, pfcqnng, pfcqrng, pfcqsng,
             pfhpsl, pfhpsn, pfplsl, pfplsn, pfsqif, pfsqitur, pfsqlf, pfsqltur, pfsqrf, pfsqsf,
             phrlw, phrsw, plsm, plu, plude, pmfd, pmfu, pq, prainfrac_toprfz, psnde, psupsat,
             psurf, pt, pvervel, pvfi, pvfl, tendency_loc_a, tendency_loc_cld, tendency_loc_q,
             tendency_loc_t, tendency_tmp_a, tendency_tmp_cld, tendency_tmp_q, tendency_tmp_t,
             KLON, NLEV, ptsphy):
    N = NLEV
    dt = pt.dtype
    zqtmst = 1.0 / ptsphy
    zrdcp = RD / RCPD
    zrg_r = 1.0 / RG
    zrldcp = 1.0 / (RALSDCP - RALVDCP)

    # pressure: half levels from the cumulative layer weights (0 at the top, psurf at the
    # surface), full levels the midpoints
    csum = np.cumsum(pdeta, axis=0)
    paph = np.zeros((N + 1, KLON), dtype=dt)
    paph[1:] = psurf * (csum / csum[N - 1])
    pap = 0.5 * (paph[:-1] + paph[1:])

    tendency_loc_t[:] = 0.0
    tendency_loc_q[:] = 0.0
    tendency_loc_a[:] = 0.0
    tendency_loc_cld[:] = 0.0
    pcovptot[:] = 0.0
    prainfrac_toprfz[:] = 0.0

    ztp1 = pt + ptsphy * tendency_tmp_t
    zqx = np.empty((NCLV, N, KLON), dtype=dt)
    zqx[QV] = pq + ptsphy * tendency_tmp_q
    zqx[:QV] = pclv + ptsphy * tendency_tmp_cld
    zqx0 = zqx.copy()
    za = pa + ptsphy * tendency_tmp_a
    zaorig = za.copy()
    zlneg = np.zeros((NCLV, N, KLON), dtype=dt)
    zqxn2d = np.zeros((NCLV, N, KLON), dtype=dt)
    zpfplsx = np.zeros((NCLV, N + 1, KLON), dtype=dt)

    # tidy up: remove condensate below RLMIN or in cloud fraction below RAMIN
    for k in range(N):
        msk = (zqx[QL, k] + zqx[QI, k] < RLMIN) | (za[k] < RAMIN)
        for m, lat in ((QL, RALVDCP), (QI, RALSDCP)):
            zlneg[m, k] = np.where(msk, zlneg[m, k] + zqx[m, k], zlneg[m, k])
            zqadj = zqx[m, k] * zqtmst
            tendency_loc_q[k] = np.where(msk, tendency_loc_q[k] + zqadj, tendency_loc_q[k])
            tendency_loc_t[k] = np.where(msk, tendency_loc_t[k] - lat * zqadj, tendency_loc_t[k])
            zqx[QV, k] = np.where(msk, zqx[QV, k] + zqx[m, k], zqx[QV, k])
            zqx[m, k] = np.where(msk, 0.0, zqx[m, k])
        za[k] = np.where(msk, 0.0, za[k])
    for m in range(NCLV - 1):
        lat = RALVDCP if IPHASE[m] == 1 else RALSDCP
        for k in range(N):
            msk = zqx[m, k] < RLMIN
            zlneg[m, k] = np.where(msk, zlneg[m, k] + zqx[m, k], zlneg[m, k])
            zqadj = zqx[m, k] * zqtmst
            tendency_loc_q[k] = np.where(msk, tendency_loc_q[k] + zqadj, tendency_loc_q[k])
            tendency_loc_t[k] = np.where(msk, tendency_loc_t[k] - lat * zqadj, tendency_loc_t[k])
            zqx[QV, k] = np.where(msk, zqx[QV, k] + zqx[m, k], zqx[QV, k])
            zqx[m, k] = np.where(msk, 0.0, zqx[m, k])

    # saturation quantities at the start of the step
    t = ztp1
    zfoealfa = foealfa(t)
    zfoeewmt = np.minimum(R2ES * (zfoealfa * np.exp(R3LES * (t - RTT) / (t - R4LES))
                                  + (1.0 - zfoealfa) * np.exp(R3IES * (t - RTT) / (t - R4IES))) / pap, 0.5)
    zqsmix = zfoeewmt / (1.0 - RETV * zfoeewmt)
    zalfa = np.where(t > RTT, 1.0, 0.0)
    zfoeew = np.minimum((zalfa * foeliq(t) + (1.0 - zalfa) * foeice(t)) / pap, 0.5)
    zqsice = zfoeew / (1.0 - RETV * zfoeew)
    zfoeeliqt = np.minimum(foeliq(t) / pap, 0.5)
    zqsliq = zfoeeliqt / (1.0 - RETV * zfoeeliqt)
    za = np.maximum(0.0, np.minimum(1.0, za))
    zli = zqx[QL] + zqx[QI]
    lim = zli > RLMIN
    zliqfrac = np.where(lim, zqx[QL] / np.where(lim, zli, 1.0), 0.0)
    zicefrac = np.where(lim, 1.0 - zliqfrac, 0.0)

    zanewm1 = np.zeros(KLON, dtype=dt)
    zcovptot = np.zeros(KLON, dtype=dt)
    zcovpmax = np.zeros(KLON, dtype=dt)
    zcldtopdist = np.zeros(KLON, dtype=dt)
    zqxnm1 = np.zeros((NCLV, KLON), dtype=dt)
    land = plsm > 0.5
    cum = ldcum != 0
    zero = np.zeros(KLON, dtype=dt)

    for k in range(NCLDTOP - 1, N):
        t = ztp1[k]
        zqv = zqx[QV, k]
        a = za[k]
        zqxfg = [zqx[m, k].copy() for m in range(NCLV)]
        zsolqa = [[zero.copy() for _ in range(NCLV)] for _ in range(NCLV)]
        zsolqb = [[zero.copy() for _ in range(NCLV)] for _ in range(NCLV)]
        zfallsrce = [zero.copy() for _ in range(NCLV)]
        zfallsink = [zero.copy() for _ in range(NCLV)]
        zconvsrce = [zero.copy() for _ in range(NCLV)]
        zconvsink = [zero.copy() for _ in range(NCLV)]
        zpsupsatsrce = [zero.copy() for _ in range(NCLV)]
        zqpretot = zero.copy()
        zlfinalsum = zero.copy()
        zsolab = zero.copy()
        zsolac = zero.copy()
        zdp = paph[k + 1] - paph[k]
        zgdp = RG / zdp
        zrho = pap[k] / (RD * t)
        zdtgdp = ptsphy * zgdp
        zrdtgdp = zdp * (1.0 / (ptsphy * RG))

        # saturation derivatives and evaporation limits
        zfacw = R5LES / (t - R4LES) ** 2
        zfaci0 = R5IES / (t - R4IES) ** 2
        zcor = 1.0 / (1.0 - RETV * zfoeew[k])
        zdqsicedt = zfaci0 * zcor * zqsice[k]
        zcorqsice = 1.0 + RALSDCP * zdqsicedt
        zalfaw = zfoealfa[k]
        zfac0 = zalfaw * zfacw + (1.0 - zalfaw) * zfaci0
        zcor = 1.0 / (1.0 - RETV * zfoeewmt[k])
        zdqsmixdt = zfac0 * zcor * zqsmix[k]
        zcorqsmix = 1.0 + (zfoealfa[k] * RALVDCP + (1.0 - zfoealfa[k]) * RALSDCP) * zdqsmixdt
        zevaplimmix = np.maximum((zqsmix[k] - zqv) / zcorqsmix, 0.0)
        ztmpa = 1.0 / np.maximum(a, EPSEC)
        zliqcld = zqx[QL, k] * ztmpa
        zicecld = zqx[QI, k] * ztmpa
        zlicld = zliqcld + zicecld
        for m in (QL, QI):
            msk = zqx[m, k] < RLMIN
            zsolqa[m][QV] = np.where(msk, zqx[m, k], zsolqa[m][QV])
            zsolqa[QV][m] = np.where(msk, -zqx[m, k], zsolqa[QV][m])

        # ice supersaturation adjustment
        zfokoop = np.minimum(RKOOP1 - RKOOP2 * t, foeliq(t) / foeice(t))
        warm = t >= RTT
        zfac = np.where(warm, 1.0, a + zfokoop * (1.0 - a))
        zfaci = np.where(warm, 1.0, ptsphy / RKOOPTAU)
        zsup_full = np.maximum((zqv - zfac * zqsice[k]) / zcorqsice, 0.0)
        zqp1env = (zqv - a * zqsice[k]) / np.maximum(1.0 - a, EPSILON)
        zsup_env = np.maximum((1.0 - a) * (zqp1env - zfac * zqsice[k]) / zcorqsice, 0.0)
        zsupsat = np.where(a > 1.0 - RAMIN, zsup_full, zsup_env)
        liqph = t > RTHOMO
        act = zsupsat > EPSEC
        for p, ph in ((QL, liqph), (QI, ~liqph)):
            mk = act & ph
            zsolqa[QV][p] = np.where(mk, zsolqa[QV][p] + zsupsat, zsolqa[QV][p])
            zsolqa[p][QV] = np.where(mk, zsolqa[p][QV] - zsupsat, zsolqa[p][QV])
            zqxfg[p] = np.where(mk, zqxfg[p] + zsupsat, zqxfg[p])
        zsolac = np.where(act, (1.0 - a) * zfaci, zsolac)
        ps = psupsat[k]
        act = ps > EPSEC
        for p, ph in ((QL, liqph), (QI, ~liqph)):
            mk = act & ph
            zsolqa[p][p] = np.where(mk, zsolqa[p][p] + ps, zsolqa[p][p])
            zpsupsatsrce[p] = np.where(mk, ps, zpsupsatsrce[p])
            zqxfg[p] = np.where(mk, zqxfg[p] + ps, zqxfg[p])
        zsolac = np.where(act, (1.0 - a) * zfaci, zsolac)

        # detrainment from convection
        if k < N - 1:
            plude[k] = plude[k] * zdtgdp
            mk = cum & (plude[k] > RLMIN) & (plu[k + 1] > EPSEC)
            zsolac = np.where(mk, zsolac + plude[k] / np.where(mk, plu[k + 1], 1.0), zsolac)
            zconvsrce[QL] = np.where(mk, zalfaw * plude[k], zconvsrce[QL])
            zconvsrce[QI] = np.where(mk, (1.0 - zalfaw) * plude[k], zconvsrce[QI])
            zsolqa[QL][QL] = np.where(mk, zsolqa[QL][QL] + zconvsrce[QL], zsolqa[QL][QL])
            zsolqa[QI][QI] = np.where(mk, zsolqa[QI][QI] + zconvsrce[QI], zsolqa[QI][QI])
            plude[k] = np.where(mk, plude[k], 0.0)
            zsolqa[QS][QS] = np.where(cum, zsolqa[QS][QS] + psnde[k] * zdtgdp, zsolqa[QS][QS])

        # subsidence source from the level above
        if k > NCLDTOP - 1:
            zmf = np.maximum(0.0, (pmfu[k] + pmfd[k]) * zdtgdp)
            zacust = zmf * zanewm1
            zlcust = [zmf * zqxnm1[m] for m in (QL, QI)]
            for m in (QL, QI):
                zconvsrce[m] = zconvsrce[m] + zlcust[m]
            zdtdp = zrdcp * 0.5 * (ztp1[k - 1] + ztp1[k]) / paph[k]
            zdtforc = zdtdp * (pap[k] - pap[k - 1])
            zdqs = zanewm1 * zdtforc * zdqsmixdt
            for m in (QL, QI):
                zlfinal = np.maximum(0.0, zlcust[m] - zdqs)
                zevap = np.minimum(zlcust[m] - zlfinal, zevaplimmix)
                zlfinal = zlcust[m] - zevap
                zlfinalsum = zlfinalsum + zlfinal
                zsolqa[m][m] = zsolqa[m][m] + zlcust[m]
                zsolqa[m][QV] = zsolqa[m][QV] + zevap
                zsolqa[QV][m] = zsolqa[QV][m] - zevap
            zacust = np.where(zlfinalsum < EPSEC, 0.0, zacust)
            zsolac = zsolac + zacust
        # subsidence sink to the level below
        if k < N - 1:
            zmfdn = np.maximum(0.0, (pmfu[k + 1] + pmfd[k + 1]) * zdtgdp)
            zsolab = zsolab + zmfdn
            zsolqb[QL][QL] = zsolqb[QL][QL] + zmfdn
            zsolqb[QI][QI] = zsolqb[QI][QI] + zmfdn
            zconvsink[QL] = zmfdn
            zconvsink[QI] = zmfdn

        # erosion of clouds by turbulent mixing
        zldifdt = np.full(KLON, RCLDIFF * ptsphy, dtype=dt)
        zldifdt = np.where((ktype > 0) & (plude[k] > EPSEC), RCLDIFF_CONVI * zldifdt, zldifdt)
        mk = zli[k] > EPSEC
        ze = zldifdt * np.maximum(zqsmix[k] - zqv, 0.0)
        zleros = a * ze
        zleros = np.minimum(zleros, zevaplimmix)
        zleros = np.minimum(zleros, zli[k])
        zaeros = zleros / np.where(mk, zlicld, 1.0)
        zsolac = np.where(mk, zsolac - zaeros, zsolac)
        for p, frac in ((QL, zliqfrac[k]), (QI, zicefrac[k])):
            zsolqa[p][QV] = np.where(mk, zsolqa[p][QV] + frac * zleros, zsolqa[p][QV])
            zsolqa[QV][p] = np.where(mk, zsolqa[QV][p] - frac * zleros, zsolqa[QV][p])

        # condensation / evaporation from large-scale forcing
        zdtdp = zrdcp * t / pap[k]
        zdpmxdt = zdp * zqtmst
        zmfdn2 = pmfu[k + 1] + pmfd[k + 1] if k < N - 1 else zero
        zwtot = pvervel[k] + 0.5 * RG * (pmfu[k] + pmfd[k] + zmfdn2)
        zwtot = np.minimum(zdpmxdt, np.maximum(-zdpmxdt, zwtot))
        zzzdt = phrsw[k] + phrlw[k]
        zdtdiab = np.minimum(zdpmxdt * zdtdp, np.maximum(-zdpmxdt * zdtdp, zzzdt)) * ptsphy + RALFDCP * 0.0
        zdtforc = zdtdp * zwtot * ptsphy + zdtdiab
        tt = np.maximum(t + zdtforc, 160.0)
        qs_cur = zqsmix[k]
        zqp = 1.0 / pap[k]
        for _ in range(2):
            zalfa1 = foealfa(tt)
            zqsat = R2ES * (zalfa1 * np.exp(R3LES * (tt - RTT) / (tt - R4LES))
                            + (1.0 - zalfa1) * np.exp(R3IES * (tt - RTT) / (tt - R4IES))) * zqp
            zqsat = np.minimum(0.5, zqsat)
            zc = 1.0 / (1.0 - RETV * zqsat)
            zqsat = zqsat * zc
            zcond = (qs_cur - zqsat) / (1.0 + zqsat * zc * (zalfa1 * R5ALVCP * (1.0 / (tt - R4LES) ** 2)
                                                           + (1.0 - zalfa1) * R5ALSCP * (1.0 / (tt - R4IES) ** 2)))
            tt = tt + (zalfa1 * RALVDCP + (1.0 - zalfa1) * RALSDCP) * zcond
            qs_cur = qs_cur - zcond
        zdqs = qs_cur - zqsmix[k]

        # evaporation of cloud
        mk = zdqs > 0.0
        zlevap = a * np.minimum(zdqs, zlicld)
        zlevap = np.minimum(zlevap, zevaplimmix)
        zlevap = np.minimum(zlevap, np.maximum(zqsmix[k] - zqv, 0.0))
        for p, frac in ((QL, zliqfrac[k]), (QI, zicefrac[k])):
            zsolqa[p][QV] = np.where(mk, zsolqa[p][QV] + frac * zlevap, zsolqa[p][QV])
            zsolqa[QV][p] = np.where(mk, zsolqa[QV][p] - frac * zlevap, zsolqa[QV][p])

        # condensation in existing cloud
        mk = (a > EPSEC) & (zdqs <= -RLMIN)
        zlcond1 = np.maximum(-zdqs, 0.0)
        zc = 1.0 / (1.0 - RETV * zqsmix[k])
        zalfa1 = foealfa(t)
        zcdmax_hi = (zqv - zqsmix[k]) / (1.0 + zc * zqsmix[k] * (zalfa1 * R5ALVCP * (1.0 / (t - R4LES) ** 2)
                                                               + (1.0 - zalfa1) * R5ALSCP * (1.0 / (t - R4IES) ** 2)))
        zcdmax_lo = (zqv - a * zqsmix[k]) / np.where(a != 0.0, a, 1.0)
        zcdmax = np.where(a > 0.99, zcdmax_hi, zcdmax_lo)
        zlcond1 = np.maximum(np.minimum(zlcond1, zcdmax), 0.0)
        zlcond1 = a * zlcond1
        zlcond1 = np.where(zlcond1 < RLMIN, 0.0, zlcond1)
        for p, ph in ((QL, liqph), (QI, ~liqph)):
            m2 = mk & ph
            zsolqa[QV][p] = np.where(m2, zsolqa[QV][p] + zlcond1, zsolqa[QV][p])
            zsolqa[p][QV] = np.where(m2, zsolqa[p][QV] - zlcond1, zsolqa[p][QV])
            zqxfg[p] = np.where(m2, zqxfg[p] + zlcond1, zqxfg[p])

        # growth of cloud fraction
        zsigk = pap[k] / paph[N]
        zrhc = np.where(zsigk > 0.8, RAMID + (1.0 - RAMID) * ((zsigk - 0.8) / 0.2) ** 2, RAMID)
        zqe = (zqv - a * zqsice[k]) / np.maximum(EPSEC, 1.0 - a)
        zqe = np.maximum(0.0, zqe)
        zf = np.where(warm, 1.0, zfokoop)
        mk = ((zdqs <= -RLMIN) & (a < 1.0 - EPSEC)
              & (zqe >= zrhc * zqsice[k] * zf) & (zqe < zqsice[k] * zf))
        zacond = -(1.0 - a) * zf * zdqs / np.maximum(2.0 * (zf * zqsice[k] - zqe), EPSEC)
        zacond = np.minimum(zacond, 1.0 - a)
        zlcond2 = -zf * zdqs * 0.5 * zacond
        zzdl = 2.0 * (zf * zqsice[k] - zqe) / np.maximum(EPSEC, 1.0 - a)
        zlcondlim = (a - 1.0) * zf * zdqs - zf * zqsice[k] + zqv
        zlcond2 = np.where(zf * zdqs < -zzdl, np.minimum(zlcond2, zlcondlim), zlcond2)
        zlcond2 = np.maximum(zlcond2, 0.0)
        zz = (zlcond2 < RLMIN) | (1.0 - a < EPSEC)
        zlcond2 = np.where(zz, 0.0, zlcond2)
        zacond = np.where(zz, 0.0, zacond)
        zacond = np.where(zlcond2 == 0.0, 0.0, zacond)
        zsolac = np.where(mk, zsolac + zacond, zsolac)
        for p, ph in ((QL, liqph), (QI, ~liqph)):
            m2 = mk & ph
            zsolqa[QV][p] = np.where(m2, zsolqa[QV][p] + zlcond2, zsolqa[QV][p])
            zsolqa[p][QV] = np.where(m2, zsolqa[p][QV] - zlcond2, zsolqa[p][QV])
            zqxfg[p] = np.where(m2, zqxfg[p] + zlcond2, zqxfg[p])

        # growth of ice by vapour deposition
        top = (za[k - 1] < RCLDTOPCF) & (a >= RCLDTOPCF)
        zcldtopdist = np.where(top, 0.0, zcldtopdist + zdp / (zrho * RG))
        mk = (t < RTT) & (zqxfg[QL] > RLMIN)
        zvpice = foeice(t) * RV / RD
        zvpliq = zvpice * zfokoop
        zicenuclei = 1000.0 * np.exp(12.96 * (zvpliq - zvpice) / zvpliq - 0.639)
        zadd = RLSTT * (RLSTT / (RV * t) - 1.0) / (0.024 * t)
        zbdd = RV * t * pap[k] / (2.21 * zvpice)
        zcvds = 7.8 * (zicenuclei / zrho) ** 0.666 * (zvpliq - zvpice) / (8.87 * (zadd + zbdd) * zvpice)
        zice0 = np.maximum(zicecld, zicenuclei * RICEINIT / zrho)
        zinew = (0.666 * zcvds * ptsphy + zice0 ** 0.666) ** 1.5
        zdepos = np.maximum(a * (zinew - zice0), 0.0)
        zdepos = np.minimum(zdepos, zqxfg[QL])
        zinfactor = np.minimum(zicenuclei / 15000.0, 1.0)
        zdepos = zdepos * np.minimum(zinfactor + (1.0 - zinfactor)
                                     * (RDEPLIQREFRATE + zcldtopdist / RDEPLIQREFDEPTH), 1.0)
        zsolqa[QL][QI] = np.where(mk, zsolqa[QL][QI] + zdepos, zsolqa[QL][QI])
        zsolqa[QI][QL] = np.where(mk, zsolqa[QI][QL] - zdepos, zsolqa[QI][QL])
        zqxfg[QI] = np.where(mk, zqxfg[QI] + zdepos, zqxfg[QI])
        zqxfg[QL] = np.where(mk, zqxfg[QL] - zdepos, zqxfg[QL])

        ztmpa = 1.0 / np.maximum(a, EPSEC)
        zliqcld = zqxfg[QL] * ztmpa
        zicecld = zqxfg[QI] * ztmpa

        # sedimentation sources from above and sinks (ice, rain, snow)
        for m in (QI, QR, QS):
            if k > NCLDTOP - 1:
                zfallsrce[m] = zpfplsx[m, k] * zdtgdp
                zsolqa[m][m] = zsolqa[m][m] + zfallsrce[m]
                zqxfg[m] = zqxfg[m] + zfallsrce[m]
                zqpretot = zqpretot + zqxfg[m]
            zfallsink[m] = zdtgdp * (VQX[m] * zrho)

        # precipitation cover
        act = zqpretot > EPSEC
        cnew = 1.0 - (1.0 - zcovptot) * (1.0 - np.maximum(a, za[k - 1])) / (1.0 - np.minimum(za[k - 1], 1.0 - 1e-06))
        cnew = np.maximum(cnew, RCOVPMIN)
        zcovptot = np.where(act, cnew, 0.0)
        zcovpclr = np.where(act, np.maximum(0.0, cnew - a), 0.0)
        csafe = np.where(act, cnew, 1.0)
        zraincld = np.where(act, zqxfg[QR] / csafe, 0.0)
        zsnowcld = np.where(act, zqxfg[QS] / csafe, 0.0)
        zcovpmax = np.where(act, np.maximum(cnew, zcovpmax), 0.0)

        # autoconversion of ice to snow
        mk = (t <= RTT) & (zicecld > EPSEC)
        zzco = ptsphy * RSNOWLIN1 * np.exp(RSNOWLIN2 * (t - RTT))
        zsnowaut = zzco * (1.0 - np.exp(-((zicecld / RLCRITSNOW) ** 2)))
        zsolqb[QI][QS] = np.where(mk, zsolqb[QI][QS] + zsnowaut, zsolqb[QI][QS])

        # warm rain: autoconversion and accretion (Khairoutdinov and Kogan)
        warmc = zliqcld > EPSEC
        zconst = np.where(land, KK_NUM_LAND, KK_NUM_SEA)
        zlcrit = np.where(land, RCLCRIT_LAND, RCLCRIT_SEA)
        above = zliqcld > zlcrit
        zrainaut = 1.5 * a * ptsphy * KK_AAU * zliqcld ** KK_BAUQ * zconst ** KK_BAUN
        zrainaut = np.minimum(zrainaut, zqxfg[QL])
        zrainaut = np.where(zrainaut < EPSEC, 0.0, zrainaut)
        zrainacc = 2.0 * a * ptsphy * KK_AAC * (zliqcld * zraincld) ** KK_BAC
        zrainacc = np.minimum(zrainacc, zqxfg[QL])
        zrainacc = np.where(zrainacc < EPSEC, 0.0, zrainacc)
        zrainaut = np.where(above, zrainaut, 0.0)
        zrainacc = np.where(above, zrainacc, 0.0)
        cold = t <= RTT
        for p, ph in ((QS, cold), (QR, ~cold)):
            m2 = warmc & ph
            zsolqa[QL][p] = np.where(m2, zsolqa[QL][p] + zrainaut, zsolqa[QL][p])
            zsolqa[QL][p] = np.where(m2, zsolqa[QL][p] + zrainacc, zsolqa[QL][p])
            zsolqa[p][QL] = np.where(m2, zsolqa[p][QL] - zrainaut, zsolqa[p][QL])
            zsolqa[p][QL] = np.where(m2, zsolqa[p][QL] - zrainacc, zsolqa[p][QL])

        # riming of snow
        mk = cold & (zliqcld > EPSEC) & (zsnowcld > EPSEC) & (zcovptot > 0.01)
        zfallcorr = (RDENSREF / zrho) ** 0.4
        zsnowrime = 0.3 * zcovptot * ptsphy * CONST7S * zfallcorr * (zrho * zsnowcld * CONST1S) ** CONST8S
        zsnowrime = np.minimum(zsnowrime, 1.0)
        zsolqb[QL][QS] = np.where(mk, zsolqb[QL][QS] + zsnowrime, zsolqb[QL][QS])

        # melting of ice and snow
        zicetot = zqxfg[QI] + zqxfg[QS]
        mk = (zicetot > EPSEC) & (t > RTT)
        zsubsat = np.maximum(zqsice[k] - zqv, 0.0)
        ztdmtw0 = t - RTT - zsubsat * (TW1 + TW2 * (pap[k] - TW3) - TW4 * (t - TW5))
        zcons1 = np.abs(ptsphy * (1.0 + 0.5 * ztdmtw0) / RTAUMEL)
        zmeltmax = np.where(mk, np.maximum(ztdmtw0 * zcons1 * zrldcp, 0.0), 0.0)
        mk = (zmeltmax > EPSEC) & (zicetot > EPSEC)
        for m in (QI, QS):
            zalf = zqxfg[m] / np.where(zicetot != 0.0, zicetot, 1.0)
            zmelt = np.minimum(zqxfg[m], zalf * zmeltmax)
            im = IMELT[m]
            zqxfg[m] = np.where(mk, zqxfg[m] - zmelt, zqxfg[m])
            zqxfg[im] = np.where(mk, zqxfg[im] + zmelt, zqxfg[im])
            zsolqa[m][im] = np.where(mk, zsolqa[m][im] + zmelt, zsolqa[m][im])
            zsolqa[im][m] = np.where(mk, zsolqa[im][m] - zmelt, zsolqa[im][m])

        # freezing of rain
        qr = zqx[QR, k]
        rain = qr > EPSEC
        topfz = rain & (t <= RTT) & (ztp1[k - 1] > RTT)
        zqpt = np.maximum(zqx[QS, k] + qr, EPSEC)
        prainfrac_toprfz[:] = np.where(topfz, qr / zqpt, prainfrac_toprfz)
        qrs = np.where(qr != 0.0, qr, 1.0)
        zlambda = (FAC1 / (zrho * qrs)) ** FAC2
        ztemp = FZRAB * (t - RTT)
        zfrz_hi = np.maximum(ptsphy * (CONST5R / zrho) * (np.exp(ztemp) - 1.0) * zlambda ** CONST6R, 0.0)
        zcons1 = np.abs(ptsphy * (1.0 + 0.5 * (RTT - t)) / RTAUMEL)
        zfrz_lo = np.maximum((RTT - t) * zcons1 * zrldcp, 0.0)
        zfrzmax = np.where(prainfrac_toprfz > 0.8, zfrz_hi, zfrz_lo)
        mk = rain & (t < RTT) & (zfrzmax > EPSEC)
        zfrz = np.minimum(qr, zfrzmax)
        zsolqa[QR][QS] = np.where(mk, zsolqa[QR][QS] + zfrz, zsolqa[QR][QS])
        zsolqa[QS][QR] = np.where(mk, zsolqa[QS][QR] - zfrz, zsolqa[QS][QR])
        # homogeneous freezing of cloud liquid
        zfrzmax = np.maximum((RTHOMO - t) * zrldcp, 0.0)
        mk = (zfrzmax > EPSEC) & (zqxfg[QL] > EPSEC)
        zfrz = np.minimum(zqxfg[QL], zfrzmax)
        zsolqa[QL][QI] = np.where(mk, zsolqa[QL][QI] + zfrz, zsolqa[QL][QI])
        zsolqa[QI][QL] = np.where(mk, zsolqa[QI][QL] - zfrz, zsolqa[QI][QL])

        # evaporation of rain (Abel and Boutle)
        zzrh = RPRECRHMAX + (1.0 - RPRECRHMAX) * zcovpmax / np.maximum(EPSEC, 1.0 - a)
        zzrh = np.minimum(np.maximum(zzrh, RPRECRHMAX), 1.0)
        zzrh = np.minimum(0.8, zzrh)
        zqe = np.maximum(0.0, np.minimum(zqv, zqsliq[k]))
        mk = (zcovpclr > EPSEC) & (zqxfg[QR] > EPSEC) & (zqe < zzrh * zqsliq[k])
        zpreclr = zqxfg[QR] / np.where(zcovptot != 0.0, zcovptot, 1.0)
        zesatliq = RV / RD * foeliq(t)
        zlambda = (FAC1 / (zrho * np.where(zpreclr != 0.0, zpreclr, 1.0))) ** FAC2
        zevap_denom = CDENOM1 * zesatliq - CDENOM2 * t * zesatliq + CDENOM3 * t ** 3.0 * pap[k]
        zcorr2 = (t / 273.0) ** 1.5 * 393.0 / (t + 120.0)
        zsubsat = np.maximum(zzrh * zqsliq[k] - zqe, 0.0)
        zbeta = (0.5 / zqsliq[k] * t ** 2 * zesatliq * CONST1R * (zcorr2 / zevap_denom)
                 * (0.78 / zlambda ** CONST4R + CONST2R * (zrho * zfallcorr) ** 0.5
                    / (zcorr2 ** 0.5 * zlambda ** CONST3R)))
        zdenom = 1.0 + zbeta * ptsphy
        zdpevap = zcovpclr * zbeta * ptsphy * zsubsat / zdenom
        zevap = np.minimum(zdpevap, zqxfg[QR])
        zsolqa[QR][QV] = np.where(mk, zsolqa[QR][QV] + zevap, zsolqa[QR][QV])
        zsolqa[QV][QR] = np.where(mk, zsolqa[QV][QR] - zevap, zsolqa[QV][QR])
        cn = np.maximum(RCOVPMIN, zcovptot - np.maximum(
            0.0, (zcovptot - a) * zevap / np.where(zqxfg[QR] != 0.0, zqxfg[QR], 1.0)))
        zcovptot = np.where(mk, cn, zcovptot)
        zqxfg[QR] = np.where(mk, zqxfg[QR] - zevap, zqxfg[QR])

        # sublimation of snow
        zzrh = RPRECRHMAX + (1.0 - RPRECRHMAX) * zcovpmax / np.maximum(EPSEC, 1.0 - a)
        zzrh = np.minimum(np.maximum(zzrh, RPRECRHMAX), 1.0)
        zqe = (zqv - a * zqsice[k]) / np.maximum(EPSEC, 1.0 - a)
        zqe = np.maximum(0.0, np.minimum(zqe, zqsice[k]))
        mk = (zcovpclr > EPSEC) & (zqxfg[QS] > EPSEC) & (zqe < zzrh * zqsice[k])
        zcp = zcovptot * zdtgdp
        zcpd = np.where(zcp > 0.0, np.maximum(zcp, EPSILON), -np.maximum(-zcp, EPSILON))
        zpreclr = zqxfg[QS] * zcovpclr / zcpd
        zbeta1 = np.sqrt(pap[k] / paph[N]) / RVRFACTOR * zpreclr / np.maximum(zcovpclr, EPSEC)
        zbeta = RG * RPECONS * np.maximum(zbeta1, 0.0) ** 0.5777
        zdenom = 1.0 + zbeta * ptsphy * zcorqsice
        zdpr = zcovpclr * zbeta * (zqsice[k] - zqe) / zdenom * zdp * zrg_r
        zdpevap = zdpr * zdtgdp
        zevap = np.minimum(zdpevap, zqxfg[QS])
        zsolqa[QS][QV] = np.where(mk, zsolqa[QS][QV] + zevap, zsolqa[QS][QV])
        zsolqa[QV][QS] = np.where(mk, zsolqa[QV][QS] - zevap, zsolqa[QV][QS])
        cn = np.maximum(RCOVPMIN, zcovptot - np.maximum(
            0.0, (zcovptot - a) * zevap / np.where(zqxfg[QS] != 0.0, zqxfg[QS], 1.0)))
        zcovptot = np.where(mk, cn, zcovptot)
        zqxfg[QS] = np.where(mk, zqxfg[QS] - zevap, zqxfg[QS])

        # falling species below RLMIN go back to vapour
        for m in (QR, QS):
            mk = zqxfg[m] < RLMIN
            zsolqa[m][QV] = np.where(mk, zsolqa[m][QV] + zqxfg[m], zsolqa[m][QV])
            zsolqa[QV][m] = np.where(mk, zsolqa[QV][m] - zqxfg[m], zsolqa[QV][m])

        # new cloud fraction
        zanew = (a + zsolac) / (1.0 + zsolab)
        zanew = np.minimum(zanew, 1.0)
        zanew = np.where(zanew < RAMIN, 0.0, zanew)
        zda = zanew - zaorig[k]
        zanewm1 = zanew

        # scale the sinks so that no species goes negative
        for m in range(NCLV):
            psum = zero.copy()
            for n in range(NCLV):
                psum = psum + zsolqa[n][m]
            zsinksum = 0.0 - psum
            zmm = np.maximum(zqx[m, k], EPSEC)
            zrr = np.maximum(zsinksum, zmm)
            zratio = zmm / zrr
            for n in range(NCLV):
                neg = zsolqa[n][m] < 0.0
                zsolqa[n][m] = np.where(neg, zsolqa[n][m] * zratio, zsolqa[n][m])
                zsolqa[m][n] = np.where(neg, zsolqa[m][n] * zratio, zsolqa[m][n])

        # implicit solve A x = b: A[m][m] = 1 + fallsink + sum_o solqb[m][o],
        # A[m][n] = -solqb[n][m]; Gaussian elimination without pivoting
        amat = [[-zsolqb[n][m] for n in range(NCLV)] for m in range(NCLV)]
        zqxn = []
        for m in range(NCLV):
            d = 1.0 + zfallsink[m]
            for o in range(NCLV):
                d = d + zsolqb[m][o]
            amat[m][m] = d
            zexplicit = zero.copy()
            for n in range(NCLV):
                zexplicit = zexplicit + zsolqa[n][m]
            zqxn.append(zqx[m, k] + zexplicit)
        for j in range(NCLV - 1):
            for i in range(j + 1, NCLV):
                amat[i][j] = amat[i][j] / amat[j][j]
                for c in range(j + 1, NCLV):
                    amat[i][c] = amat[i][c] - amat[i][j] * amat[j][c]
        for i in range(1, NCLV):
            for j in range(i):
                zqxn[i] = zqxn[i] - amat[i][j] * zqxn[j]
        zqxn[NCLV - 1] = zqxn[NCLV - 1] / amat[NCLV - 1][NCLV - 1]
        for i in range(NCLV - 2, -1, -1):
            for j in range(i + 1, NCLV):
                zqxn[i] = zqxn[i] - amat[i][j] * zqxn[j]
            zqxn[i] = zqxn[i] / amat[i][i]
        for m in range(NCLV - 1):
            neg = zqxn[m] < EPSEC
            zqxn[QV] = np.where(neg, zqxn[QV] + zqxn[m], zqxn[QV])
            zqxn[m] = np.where(neg, 0.0, zqxn[m])
        for m in range(NCLV):
            zqxnm1[m] = zqxn[m]
            zqxn2d[m, k] = zqxn[m]
            zpfplsx[m, k + 1] = zfallsink[m] * zqxn[m] * zrdtgdp
        zqpretot = zpfplsx[QS, k + 1] + zpfplsx[QR, k + 1]
        zcovptot = np.where(zqpretot < EPSEC, 0.0, zcovptot)

        # tendencies
        for m in range(NCLV - 1):
            zfluxq = zpsupsatsrce[m] + zconvsrce[m] + zfallsrce[m] - (zfallsink[m] + zconvsink[m]) * zqxn[m]
            lat = RALVDCP if IPHASE[m] == 1 else RALSDCP
            tendency_loc_t[k] = tendency_loc_t[k] + lat * (zqxn[m] - zqx[m, k] - zfluxq) * zqtmst
            tendency_loc_cld[m, k] = tendency_loc_cld[m, k] + (zqxn[m] - zqx0[m, k]) * zqtmst
        tendency_loc_q[k] = tendency_loc_q[k] + (zqxn[QV] - zqx[QV, k]) * zqtmst
        tendency_loc_a[k] = tendency_loc_a[k] + zda * zqtmst
        pcovptot[k] = zcovptot

    # fluxes on half levels
    pfplsl[:] = zpfplsx[QR] + zpfplsx[QL]
    pfplsn[:] = zpfplsx[QS] + zpfplsx[QI]
    for arr in (pfsqlf, pfsqif, pfsqrf, pfsqsf, pfcqlng, pfcqnng, pfcqrng, pfcqsng, pfsqltur, pfsqitur):
        arr[0] = 0.0
    for k in range(N):
        zgdph_r = -zrg_r * (paph[k + 1] - paph[k]) * zqtmst
        alfaw = zfoealfa[k]
        lf = pfsqlf[k].copy()
        fi = pfsqif[k].copy()
        cl = pfcqlng[k].copy()
        cn = pfcqnng[k].copy()
        pfsqlf[k + 1] = lf + (zqxn2d[QL, k] - zqx0[QL, k] + pvfl[k] * ptsphy - alfaw * plude[k]) * zgdph_r
        pfcqlng[k + 1] = cl + zlneg[QL, k] * zgdph_r
        pfsqltur[k + 1] = pfsqltur[k] + pvfl[k] * ptsphy * zgdph_r
        pfsqrf[k + 1] = lf + (zqxn2d[QR, k] - zqx0[QR, k]) * zgdph_r
        pfcqrng[k + 1] = cl + zlneg[QR, k] * zgdph_r
        pfsqif[k + 1] = fi + (zqxn2d[QI, k] - zqx0[QI, k] + pvfi[k] * ptsphy - (1.0 - alfaw) * plude[k]) * zgdph_r
        pfcqnng[k + 1] = cn + zlneg[QI, k] * zgdph_r
        pfsqitur[k + 1] = pfsqitur[k] + pvfi[k] * ptsphy * zgdph_r
        pfsqsf[k + 1] = fi + (zqxn2d[QS, k] - zqx0[QS, k]) * zgdph_r
        pfcqsng[k + 1] = cn + zlneg[QS, k] * zgdph_r
    pfhpsl[:] = -RLVTT * pfplsl
    pfhpsn[:] = -RLSTT * pfplsn
