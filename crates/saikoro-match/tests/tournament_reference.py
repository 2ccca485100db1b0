"""Reference values for saikoro-match's tests/pure/*.rs and src/stats/normal.rs, computed
apart from the Rust code (the tests hold the numbers; they do not run this script).

Run with Python 3, mpmath and scipy (scipy only gives Newton a starting point):
    python3 crates/saikoro-match/tests/tournament_reference.py
Elo figures come from their closed forms at 50 significant digits; the normal CDF is mpmath's
ncdf; each SPRT log-likelihood ratio solves the constrained maximum-likelihood problem as its
Karush-Kuhn-Tucker system with mpmath's multidimensional Newton (findroot), not with the fixed
point the Rust code iterates.
"""
import math
import mpmath as mp
import numpy as np
from scipy.optimize import minimize

mp.mp.dps = 50
Z = mp.mpf('1.959963984540054')  # fastchess's CI95ZSCORE
NELO = 800 / mp.log(10)


def elo_of(s):
    if s >= 1: return mp.inf
    if s <= 0: return -mp.inf
    return 400 * mp.log10(s / (1 - s))


def estimate(values, counts, per_game):
    n = mp.mpf(sum(counts))
    p = [mp.mpf(c) / n for c in counts]
    s = sum(v * q for v, q in zip(values, p))
    var = sum(q * (v - s) ** 2 for v, q in zip(values, p))
    h = Z * mp.sqrt(var / n)
    lo, hi = elo_of(s - h), elo_of(s + h)
    err = None if (mp.isinf(lo) and mp.isinf(hi) and lo == hi) else (hi - lo) / 2
    if var == 0:
        nelo = None if s == mp.mpf('0.5') else (mp.inf if s > 0.5 else -mp.inf)
        nerr = None
        los = None if s == mp.mpf('0.5') else (1 if s > 0.5 else 0)
    else:
        nelo = (s - mp.mpf('0.5')) / mp.sqrt(per_game * var) * NELO
        nerr = Z * NELO / mp.sqrt(per_game * n)  # closed form: the interval's width over sigma
        los = mp.ncdf((s - mp.mpf('0.5')) / mp.sqrt(var / n))
    return dict(score=s, elo=elo_of(s), elo_error=err, nelo=nelo, nelo_error=nerr, los=los)


def wdl(w, d, l):
    return estimate([0, mp.mpf('0.5'), 1], [l, d, w], 1)


def penta(ll, ld, wl, dd, wd, ww):
    return estimate([0, mp.mpf('0.25'), mp.mpf('0.5'), mp.mpf('0.75'), 1], [ll, ld, wl + dd, wd, ww], 2)


def regularize(c):
    return [mp.mpf('0.001') if x == 0 else mp.mpf(x) for x in c]


def kkt(values, ph, g, gradg, start):
    k = len(values)

    def eqs(*x):
        p, lam, nu = x[:k], x[k], x[k + 1]
        gg = gradg(p)
        return [ph[i] / p[i] - lam - nu * gg[i] for i in range(k)] + [sum(p) - 1, g(p)]

    sol = mp.findroot(eqs, list(start) + [mp.mpf(1), mp.mpf(0)], tol=mp.mpf(10) ** -40, maxsteps=500)
    p = [sol[i] for i in range(k)]
    assert all(q > 0 for q in p)
    return p


def start(values, ph, cons):
    a = np.array([float(v) for v in values])
    f = np.array([float(q) for q in ph])
    res = minimize(lambda p: -np.dot(f, np.log(p)), f, method='SLSQP',
                   constraints=[{'type': 'eq', 'fun': lambda p: p.sum() - 1},
                                {'type': 'eq', 'fun': lambda p: cons(p, a)}],
                   bounds=[(1e-15, 1)] * len(a), options={'ftol': 1e-15, 'maxiter': 2000})
    return [mp.mpf(x) for x in res.x]


def mle_expected(values, ph, s):
    g = lambda p: sum(q * v for q, v in zip(p, values)) - s
    return kkt(values, ph, g, lambda p: list(values), start(values, ph, lambda p, a: p @ a - float(s)))


def mle_t(values, ph, t):
    def mv(p):
        mu = sum(q * v for q, v in zip(p, values))
        return mu, sum(q * (v - mu) ** 2 for q, v in zip(p, values))

    def g(p):
        mu, var = mv(p)
        return mu - mp.mpf('0.5') - t * mp.sqrt(var)

    def gradg(p):
        mu, var = mv(p)
        return [v - t * (v * v - 2 * mu * v) / (2 * mp.sqrt(var)) for v in values]

    def cons(p, a):
        mu = p @ a
        return mu - 0.5 - float(t) * math.sqrt(max(p @ (a - mu) ** 2, 1e-300))

    return kkt(values, ph, g, gradg, start(values, ph, cons))


def logistic_score(elo):
    return 1 / (1 + mp.mpf(10) ** (-mp.mpf(elo) / 400))


def bayes_score(elo, drawelo):
    w = 1 / (1 + mp.mpf(10) ** ((drawelo - elo) / 400))
    l = 1 / (1 + mp.mpf(10) ** ((drawelo + elo) / 400))
    return w + (1 - w - l) / 2


def llr(counts, model, elo0, elo1):
    """counts: [L, D, W] or [LL, LD, WL+DD, WD, WW]."""
    n = regularize(counts)
    tot = sum(n)
    ph = [x / tot for x in n]
    k = len(n)
    values = [mp.mpf(i) / (k - 1) for i in range(k)]
    e0, e1 = mp.mpf(elo0), mp.mpf(elo1)
    if model == 'logistic':
        p0, p1 = (mle_expected(values, ph, logistic_score(e)) for e in (e0, e1))
    elif model == 'bayesian':
        if counts[0] == 0 or counts[2] == 0:
            return mp.mpf(0)
        L, W = ph[0], ph[2]
        de = 200 * mp.log10((1 - L) / L * (1 - W) / W)
        p0, p1 = (mle_expected(values, ph, bayes_score(e, de)) for e in (e0, e1))
    else:
        scale = (mp.sqrt(2) if k == 5 else 1) / NELO
        p0, p1 = (mle_t(values, ph, e * scale) for e in (e0, e1))
    return sum(x * mp.log(b / a) for x, a, b in zip(n, p0, p1))


def show(x):
    if x is None: return 'None'
    if mp.isinf(x): return 'inf' if x > 0 else '-inf'
    return mp.nstr(x, 17, min_fixed=-4, max_fixed=8)


if __name__ == '__main__':
    print('# Elo estimates (trinomial: W, D, L)')
    for c in [(76, 123, 89), (136, 111, 96), (34, 0, 356), (2, 0, 2), (30, 40, 30), (1, 0, 10),
              (5, 0, 0), (0, 7, 0), (0, 0, 3)]:
        r = wdl(*c)
        print(c, {k: show(v) for k, v in r.items()})
    print('# Elo estimates (pentanomial: LL, LD, WL, DD, WD, WW)')
    for c in [(34, 54, 31, 32, 64, 75), (332, 433, 457, 41, 333, 334), (7895, 8757, 5485, 200, 568, 9999),
              (0, 0, 0, 0, 4, 0), (0, 0, 2, 1, 0, 0), (144, 3, 1, 0, 0, 0)]:
        r = penta(*c)
        print(c, {k: show(v) for k, v in r.items()})
    print('# SPRT LLR')
    cases = [
        ([36027, 68692, 36433], 'normalized', 0, 2), ([10650, 20431, 10871], 'normalized', -1.75, 0.25),
        ([0, 0, 4250], 'normalized', 0, 10), ([21184, 40708, 21404], 'logistic', 0.5, 2.5),
        ([57030, 106593, 57433], 'logistic', 0, 2), ([68526, 128429, 68965], 'bayesian', 0, 2),
        ([21484, 41111, 21629], 'bayesian', 0.5, 2.5),
        ([365, 16618, 36029 + 200, 16974, 390], 'normalized', 0, 2),
        ([127, 4883, 10311 + 401, 5150, 104], 'normalized', -1.75, 0.25),
        ([0, 0, 0, 0, 5550], 'normalized', 0, 5),
        ([223, 9863, 20279 + 1000, 10037, 246], 'logistic', 0.5, 2.5),
        ([871, 26175, 55003 + 980, 26678, 821], 'logistic', 0, 2),
        # one-sided matches (fastchess issue #879 and its pull requests)
        ([144, 3, 1, 0, 0], 'normalized', -1500, -500), ([77, 1, 0, 0, 0], 'normalized', -1000, -500),
        ([72, 10, 0, 0, 0], 'normalized', -1000, -500), ([144, 3, 1, 0, 0], 'logistic', -1500, -500),
        # no results at all, one kind only
        ([0, 0, 0, 0, 0], 'normalized', 0, 5), ([0, 0, 0], 'logistic', 0, 5),
        ([0, 0, 7, 0, 0], 'normalized', 0, 5), ([0, 3, 0], 'normalized', 0, 5),
        ([3, 4, 5, 6, 7], 'normalized', -20, 20), ([3, 4, 5, 6, 7], 'logistic', -20, 20),
        # the report tests' examples
        ([34, 54, 63, 64, 75], 'normalized', 0, 5), ([96, 111, 136], 'logistic', 0, 10),
        ([153, 182, 245], 'normalized', 0, 5), ([7, 15, 20], 'bayesian', 0, 10),
        # the report page's one-sided matches (tests/it/report_figures.rs)
        ([0, 0, 0, 0, 1], 'logistic', 0, 400), ([0, 0, 0, 0, 2], 'logistic', 0, 400),
        ([0, 0, 0, 0, 3], 'logistic', 0, 400), ([0, 0, 0, 0, 4], 'logistic', 0, 400),
        ([0, 0, 0, 0, 5], 'logistic', 0, 400), ([1, 0, 0, 0, 0], 'logistic', 0, 400),
        ([2, 0, 0, 0, 0], 'logistic', 0, 400), ([0, 0, 1, 0, 0], 'logistic', 0, 400),
        ([0, 0, 2, 0, 0], 'logistic', 0, 400), ([0, 0, 1], 'logistic', 0, 400),
        ([0, 0, 0, 0, 0], 'logistic', 0, 400),
    ]
    for counts, model, e0, e1 in cases:
        print(counts, model, e0, e1, show(llr(counts, model, e0, e1)))
    print('# normal CDF')
    for z in [0, 1, -1, 1.959963984540054, -3, 3.5, -5, -10, 8]:
        print(z, show(mp.ncdf(mp.mpf(z))))
    print('# SPRT bounds for alpha = beta = 0.05, and alpha = 0.1, beta = 0.2')
    print(show(mp.log(mp.mpf('0.05') / mp.mpf('0.95'))), show(mp.log(mp.mpf('0.95') / mp.mpf('0.05'))))
    print(show(mp.log(mp.mpf('0.2') / mp.mpf('0.9'))), show(mp.log(mp.mpf('0.8') / mp.mpf('0.1'))))
