/* The freestanding runtime of passlab's Hexagon programs: process entry,
 * read/write/exit through Linux syscalls (qemu-hexagon user mode), the
 * memory and arithmetic helpers LLVM 14 calls on Hexagon (Debian ships no
 * compiler-rt for it), half conversions and the libm functions generated
 * kernels use. Accuracy: the math is double-precision series and Newton
 * iterations, good to about 1e-12 relative, far below float16/float32 ulps. */
typedef unsigned long size_t;
typedef unsigned long long u64;
typedef long long i64;
typedef unsigned int u32;
typedef unsigned short u16;

int main(void);

static long syscall3(long n, long a, long b, long c) {
  register long r6 __asm__("r6") = n;
  register long r0 __asm__("r0") = a;
  register long r1 __asm__("r1") = b;
  register long r2 __asm__("r2") = c;
  __asm__ volatile("trap0(#1)" : "+r"(r0) : "r"(r6), "r"(r1), "r"(r2) : "memory");
  return r0;
}

/* asm-generic syscall numbers, which Hexagon Linux uses. */
enum { SYS_read = 63, SYS_write = 64, SYS_exit_group = 94 };

__attribute__((noreturn)) void pl_exit(int code) {
  for (;;) syscall3(SYS_exit_group, code, 0, 0);
}

void pl_read_all(void* p, int n) {
  char* c = (char*)p;
  while (n > 0) {
    long got = syscall3(SYS_read, 0, (long)c, n);
    if (got <= 0) pl_exit(3); /* short input: the host sent the wrong sizes */
    c += got;
    n -= (int)got;
  }
}

void pl_write_all(const void* p, int n) {
  const char* c = (const char*)p;
  while (n > 0) {
    long put = syscall3(SYS_write, 1, (long)c, n);
    if (put <= 0) pl_exit(4);
    c += put;
    n -= (int)put;
  }
}

__attribute__((noreturn, used)) void _start(void) { pl_exit(main()); }

/* A failed TIR assert (codegen's kAssertFailSymbol): the message on stderr
 * after a marker the host looks for, then exit status 9. */
__attribute__((noreturn)) void passlab_assert_fail(const char* message) {
  static const char marker[] = "passlab-assert: ";
  int n = 0;
  while (message[n]) ++n;
  syscall3(SYS_write, 2, (long)marker, sizeof marker - 1);
  syscall3(SYS_write, 2, (long)message, n);
  syscall3(SYS_write, 2, (long)"\n", 1);
  pl_exit(9);
}

void* memcpy(void* d, const void* s, size_t n) {
  char* dc = (char*)d;
  const char* sc = (const char*)s;
  while (n--) *dc++ = *sc++;
  return d;
}
void* memmove(void* d, const void* s, size_t n) {
  char* dc = (char*)d;
  const char* sc = (const char*)s;
  if (dc < sc) {
    while (n--) *dc++ = *sc++;
  } else {
    while (n--) dc[n] = sc[n];
  }
  return d;
}
void* memset(void* d, int v, size_t n) {
  char* dc = (char*)d;
  while (n--) *dc++ = (char)v;
  return d;
}
void* __hexagon_memcpy_likely_aligned_min32bytes_mult8bytes(void* d, const void* s, size_t n) { return memcpy(d, s, n); }

/* ---- integer division (Hexagon has no divide instruction) ---- */
static u64 udivmod64(u64 n, u64 d, u64* rem) {
  if (d == 0) { if (rem) *rem = 0; return 0; }
  u64 q = 0, r = 0;
  for (int i = 63; i >= 0; --i) {
    r = (r << 1) | ((n >> i) & 1);
    if (r >= d) { r -= d; q |= (u64)1 << i; }
  }
  if (rem) *rem = r;
  return q;
}
u64 __hexagon_udivdi3(u64 a, u64 b) { return udivmod64(a, b, 0); }
u64 __hexagon_umoddi3(u64 a, u64 b) { u64 r; udivmod64(a, b, &r); return r; }
i64 __hexagon_divdi3(i64 a, i64 b) {
  int neg = (a < 0) != (b < 0);
  u64 q = udivmod64(a < 0 ? -(u64)a : (u64)a, b < 0 ? -(u64)b : (u64)b, 0);
  return neg ? -(i64)q : (i64)q;
}
i64 __hexagon_moddi3(i64 a, i64 b) {
  u64 r;
  udivmod64(a < 0 ? -(u64)a : (u64)a, b < 0 ? -(u64)b : (u64)b, &r);
  return a < 0 ? -(i64)r : (i64)r;
}
u32 __hexagon_udivsi3(u32 a, u32 b) { return (u32)__hexagon_udivdi3(a, b); }
u32 __hexagon_umodsi3(u32 a, u32 b) { return (u32)__hexagon_umoddi3(a, b); }
int __hexagon_divsi3(int a, int b) { return (int)__hexagon_divdi3(a, b); }
int __hexagon_modsi3(int a, int b) { return (int)__hexagon_moddi3(a, b); }
u64 __udivdi3(u64 a, u64 b) { return __hexagon_udivdi3(a, b); }
u64 __umoddi3(u64 a, u64 b) { return __hexagon_umoddi3(a, b); }
i64 __divdi3(i64 a, i64 b) { return __hexagon_divdi3(a, b); }
i64 __moddi3(i64 a, i64 b) { return __hexagon_moddi3(a, b); }

/* ---- floating point helpers ---- */
typedef union { double d; u64 u; } dbits;
double fabs(double x);
typedef union { float f; u32 u; } fbits;

static double scale2(double x, int k) { /* x * 2^k for normal results */
  while (k > 1000) { x *= 0x1p1000; k -= 1000; }
  while (k < -1000) { x *= 0x1p-1000; k += 1000; }
  dbits b; b.u = (u64)(k + 1023) << 52;
  return x * b.d;
}

double __hexagon_divdf3(double a, double b) {
  if (b == 0.0 || a != a || b != b) {
    if (a != a || b != b || a == 0.0) return (a - a) + (b - b) + 0.0 / 0.0 * 0 + (a == 0.0 && b == 0.0 ? (dbits){.u = 0x7ff8000000000000ull}.d : 0);
    int neg = ((dbits){.d = a}.u ^ (dbits){.d = b}.u) >> 63;
    return (dbits){.u = neg ? 0xfff0000000000000ull : 0x7ff0000000000000ull}.d;
  }
  dbits bb = {.d = b};
  int e = (int)((bb.u >> 52) & 0x7ff) - 1023;
  if (e == 1024) return a == a && (((dbits){.d = a}.u >> 52) & 0x7ff) != 0x7ff ? 0.0 * (a < 0 ? -1 : 1) * (b < 0 ? -1 : 1) : (dbits){.u = 0x7ff8000000000000ull}.d;
  double m = scale2(b, -e); /* b = m * 2^e, |m| in [1, 2) */
  double am = fabs(m);
  /* Newton-Raphson from the linear seed 24/17 - 8/17 m (error <= 1/17 on
   * [1, 2)); no division here, or the divide LLVM lowers to a call would recurse. */
  double r = 1.4117647058823530 - 0.47058823529411764 * am;
  for (int i = 0; i < 6; ++i) r = r * (2.0 - am * r);
  if (m < 0) r = -r;
  double q = a * r;
  q = q + r * (a - m * q);
  return scale2(q, -e);
}
double __divdf3(double a, double b) { return __hexagon_divdf3(a, b); }
float __hexagon_divsf3(float a, float b) { return (float)__hexagon_divdf3(a, b); }
float __divsf3(float a, float b) { return (float)__hexagon_divdf3(a, b); }

double sqrt(double x) {
  if (x < 0 || x != x) return (dbits){.u = 0x7ff8000000000000ull}.d;
  if (x == 0 || x == 1.0 / 0.0) return x;
  dbits b = {.d = x};
  int e = (int)((b.u >> 52) & 0x7ff) - 1023;
  int half = e >= 0 ? e / 2 : -((-e + 1) / 2);
  double m = scale2(x, -2 * half); /* in [1, 4) */
  double y = 1.5;
  for (int i = 0; i < 6; ++i) y = 0.5 * (y + __hexagon_divdf3(m, y));
  return scale2(y, half);
}
double __hexagon_sqrtdf2(double x) { return sqrt(x); }
float __hexagon_sqrtf(float x) { return (float)sqrt(x); }
float sqrtf(float x) { return (float)sqrt(x); }

/* ---- half conversions (IEEE binary16, round to nearest even) ---- */
float __extendhfsf2(u16 h) {
  u32 sign = (u32)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  fbits f;
  if (exp == 0x1f) {
    f.u = sign | 0x7f800000u | (man << 13);
  } else if (exp != 0) {
    f.u = sign | ((exp + 112) << 23) | (man << 13);
  } else if (man == 0) {
    f.u = sign;
  } else { /* subnormal half: value man * 2^-24, exact in float */
    f.f = (float)man * 0x1p-24f;
    f.u |= sign;
  }
  return f.f;
}
float __gnu_h2f_ieee(u16 h) { return __extendhfsf2(h); }

static u16 roundToHalf(u64 sign, int exp2, u64 mant, int mantBits) {
  /* value = mant * 2^(exp2 - mantBits), mant has its leading 1 at bit mantBits */
  int e = exp2 + 15;
  if (e >= 31) return (u16)(sign | 0x7c00);
  int shift = mantBits - 10;
  u64 m;
  if (e <= 0) { shift += 1 - e; e = 0; }
  if (shift > 63) return (u16)sign;
  m = mant >> shift;
  u64 rest = mant & (((u64)1 << shift) - 1), halfway = (u64)1 << (shift - 1);
  if (rest > halfway || (rest == halfway && (m & 1))) m++;
  u32 bits;
  if (e == 0) bits = (u32)m; /* subnormal, may round up into the normals */
  else bits = ((u32)e << 10) + (u32)(m - 0x400);
  if (m == 0x800 && e != 0) bits = (u32)(e + 1) << 10;
  if (bits >= 0x7c00) bits = 0x7c00;
  return (u16)(sign | bits);
}

u16 __truncdfhf2(double x) {
  dbits b = {.d = x};
  u64 sign = (b.u >> 48) & 0x8000;
  int exp = (int)((b.u >> 52) & 0x7ff);
  u64 man = b.u & 0xfffffffffffffull;
  if (exp == 0x7ff) return (u16)(sign | 0x7c00 | (man ? 0x200 : 0));
  if (exp == 0) return (u16)sign; /* double subnormals are far below half's range */
  return roundToHalf(sign, exp - 1023, man | ((u64)1 << 52), 52);
}
u16 __truncsfhf2(float x) { return __truncdfhf2((double)x); }
u16 __gnu_f2h_ieee(float x) { return __truncsfhf2(x); }

/* ---- libm ---- */
double fabs(double x) { dbits b = {.d = x}; b.u &= ~((u64)1 << 63); return b.d; }
double trunc(double x) {
  if (!(fabs(x) < 0x1p52)) return x;
  return (double)(i64)x;
}
double floor(double x) { double t = trunc(x); return t > x ? t - 1 : t; }
double ceil(double x) { double t = trunc(x); return t < x ? t + 1 : t; }
double nearbyint(double x) {
  if (!(fabs(x) < 0x1p52)) return x;
  double f = floor(x), d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return ((i64)f & 1) ? f + 1 : f;
}
double rint(double x) { return nearbyint(x); }
double round(double x) { return x < 0 ? -floor(-x + 0.5) : floor(x + 0.5); }
/* r mod ay for finite r >= 0 and normal ay > 0, by long division in binary:
 * subtract the largest ay * 2^k not above r. Each subtraction is exact
 * (r / 2 < ay * 2^k <= r), so the remainder is exact like C's fmod, where
 * x - trunc(x / y) * y loses it to the quotient's rounding. */
static double fmodNormal(double r, double ay) {
  int ey = (int)(((dbits){.d = ay}.u >> 52) & 0x7ff);
  while (r >= ay) {
    int k = (int)(((dbits){.d = r}.u >> 52) & 0x7ff) - ey;
    double t = scale2(ay, k);
    if (t > r) t = scale2(ay, k - 1);
    r -= t;
  }
  return r;
}
double fmod(double x, double y) {
  if (y == 0 || x != x || y != y || fabs(x) == 1.0 / 0.0) return (dbits){.u = 0x7ff8000000000000ull}.d;
  double r = fabs(x), ay = fabs(y);
  if (r < ay) return x; /* also y = +-inf */
  if (ay < 0x1p-1000) {
    /* A tiny divisor: reduce by ay * 2^1000 (a multiple of ay) first, then
     * finish with both scaled by 2^1000, which is exact both ways. */
    double big = ay * 0x1p1000;
    r = fmodNormal(r, big) * 0x1p1000;
    r = fmodNormal(r, big) * 0x1p-1000;
  } else {
    r = fmodNormal(r, ay);
  }
  return x < 0 ? -r : r;
}

double exp(double x) {
  if (x != x) return x;
  if (x > 709.7) return 1.0 / 0.0;
  if (x < -745.2) return 0.0;
  double k = nearbyint(x * 1.4426950408889634);
  double r = x - k * 0.6931471803691238 - k * 1.9082149292705877e-10;
  double term = 1, sum = 1;
  for (int i = 1; i < 18; ++i) { term = term * r * (1.0 / 1) ; term = __hexagon_divdf3(term, (double)i); sum += term; }
  return scale2(sum, (int)k);
}
double exp2(double x) { return exp(x * 0.6931471805599453); }
double log(double x) {
  if (x != x || x < 0) return (dbits){.u = 0x7ff8000000000000ull}.d;
  if (x == 0) return -1.0 / 0.0;
  if (x == 1.0 / 0.0) return x;
  dbits b = {.d = x};
  int e = (int)((b.u >> 52) & 0x7ff) - 1023;
  if (e == -1023) { x *= 0x1p60; b.d = x; e = (int)((b.u >> 52) & 0x7ff) - 1023 - 60; }
  double m = scale2(b.d, -(int)(((b.u >> 52) & 0x7ff) - 1023));
  if (m > 1.4142135623730951) { m *= 0.5; e += 1; }
  double s = __hexagon_divdf3(m - 1, m + 1), s2 = s * s, term = s, sum = 0;
  for (int i = 1; i < 40; i += 2) { sum += __hexagon_divdf3(term, (double)i); term *= s2; }
  return 2 * sum + e * 0.6931471805599453;
}
double log2(double x) { return log(x) * 1.4426950408889634; }
double pow(double x, double y) {
  if (y == 0) return 1;
  if (x == 0) return y > 0 ? 0 : 1.0 / 0.0;
  if (x < 0) {
    if (trunc(y) != y) return (dbits){.u = 0x7ff8000000000000ull}.d;
    double r = exp(y * log(-x));
    return ((i64)fmod(y, 2.0) != 0) ? -r : r;
  }
  return exp(y * log(x));
}
double tanh(double x) {
  if (x > 20) return 1;
  if (x < -20) return -1;
  if (fabs(x) < 1e-5) return x - x * x * x / 3;
  double e = exp(2 * x);
  return __hexagon_divdf3(e - 1, e + 1);
}
double erf(double x) {
  /* Maclaurin series below 3 (converges; double sums it well), 1 beyond. */
  double ax = fabs(x);
  if (ax >= 6) return x < 0 ? -1 : 1;
  if (ax > 3) { /* erfc asymptotic continued fraction */
    double t = 0;
    for (int k = 60; k >= 1; --k) t = __hexagon_divdf3(k * 0.5, ax + t);
    double erfc = __hexagon_divdf3(exp(-ax * ax), (ax + t) * 1.7724538509055159);
    return x < 0 ? erfc - 1 : 1 - erfc;
  }
  double term = x, sum = x, x2 = x * x;
  for (int n = 1; n < 80; ++n) {
    term = __hexagon_divdf3(-term * x2, (double)n);
    sum += __hexagon_divdf3(term, (double)(2 * n + 1));
  }
  return sum * 1.1283791670955126;
}
/* Trigonometric functions: Cody-Waite reduction by pi/2 with pi/2 split into
 * three parts of 33 bits each (n * part is exact for |n| < 2^20, so the
 * remainder keeps full precision for |x| up to about 1e6 and degrades slowly
 * beyond), then polynomials on [-pi/4, pi/4]: Taylor series whose truncation
 * error is below 1e-18 there. The quadrant picks sin or cos and the sign. */
#define PIO2_1 1.57079632673412561417e+00  /* first 33 bits of pi/2 */
#define PIO2_2 6.07710050630396597660e-11  /* next 33 bits */
#define PIO2_3 2.02226624879595063154e-21  /* the rest */
static double reduceQuarterPi(double x, int* quadrant) {
  /* From 2^52 on every double is a multiple of 4 pi/2 to within its own ulp:
   * no digit of the remainder is known, so none is made up. */
  if (!(fabs(x) < 0x1p52)) { *quadrant = 0; return 0; }
  double n = nearbyint(x * 0.63661977236758134308);
  *quadrant = (int)((i64)fmod(n, 4.0) & 3);
  return ((x - n * PIO2_1) - n * PIO2_2) - n * PIO2_3;
}
static double sinKernel(double r) { /* r in [-pi/4, pi/4] */
  double z = r * r;
  double p = -1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880 + z * (-1.0 / 39916800 +
             z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0 + z * (1.0 / 355687428096000.0 +
             z * (-1.0 / 121645100408832000.0))))))));
  return r + r * z * p;
}
static double cosKernel(double r) {
  double z = r * r;
  double p = 1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 + z * (-1.0 / 3628800 + z * (1.0 / 479001600 +
             z * (-1.0 / 87178291200.0 + z * (1.0 / 20922789888000.0 + z * (-1.0 / 6402373705728000.0 +
             z * (1.0 / 2432902008176640000.0))))))));
  return 1.0 - 0.5 * z + z * z * p;
}
static double nanValue(void) { return (dbits){.u = 0x7ff8000000000000ull}.d; }
double sin(double x) {
  if (x != x || fabs(x) == 1.0 / 0.0) return nanValue();
  if (fabs(x) < 0.78539816339744830962) return sinKernel(x); /* no reduction: keeps tiny x exact */
  int q;
  double r = reduceQuarterPi(x, &q);
  double v = (q & 1) ? cosKernel(r) : sinKernel(r);
  return (q & 2) ? -v : v;
}
double cos(double x) {
  if (x != x || fabs(x) == 1.0 / 0.0) return nanValue();
  int q;
  double r = reduceQuarterPi(x, &q);
  double v = (q & 1) ? sinKernel(r) : cosKernel(r);
  return (q == 1 || q == 2) ? -v : v;
}
double tan(double x) {
  if (x != x || fabs(x) == 1.0 / 0.0) return nanValue();
  int q = 0;
  double r = fabs(x) < 0.78539816339744830962 ? x : reduceQuarterPi(x, &q);
  double s = sinKernel(r), c = cosKernel(r);
  /* tan(r + n pi/2) is tan(r) for even n and -cot(r) for odd n. */
  return (q & 1) ? -__hexagon_divdf3(c, s) : __hexagon_divdf3(s, c);
}

/* atan: |x| > 1 folds onto 1/|x| (atan x = pi/2 - atan 1/x), values above
 * tan(pi/12) shift by pi/6 (atan t = pi/6 + atan((t sqrt3 - 1) / (sqrt3 + t))),
 * leaving |u| <= tan(pi/12) = 0.268 where the alternating series
 * u - u^3/3 + u^5/5 ... is below 1e-18 after 15 terms. */
double atan(double x) {
  if (x != x) return x;
  double ax = fabs(x), offset = 0;
  int invert = ax > 1;
  if (invert) ax = ax == 1.0 / 0.0 ? 0 : __hexagon_divdf3(1.0, ax);
  if (ax > 0.26794919243112270647) {
    ax = __hexagon_divdf3(ax * 1.73205080756887729353 - 1.0, 1.73205080756887729353 + ax);
    offset = 0.52359877559829887308;
  }
  double z = ax * ax, p = 0;
  for (int k = 15; k >= 1; --k) p = __hexagon_divdf3(k & 1 ? -1.0 : 1.0, (double)(2 * k + 1)) + z * p;
  double r = offset + (ax + ax * z * p);
  if (invert) r = 1.57079632679489661923 - r;
  return x < 0 ? -r : r;
}
/* asin x = atan(x / sqrt(1 - x^2)), with 1 - x^2 as (1 - x)(1 + x) so it
 * stays exact near |x| = 1. acos x = 2 atan(sqrt((1 - x) / (1 + x))): small
 * results near x = 1 keep their relative precision (1 - x is exact there). */
double asin(double x) {
  double ax = fabs(x);
  if (x != x || ax > 1) return nanValue();
  if (ax == 1) return x * 1.57079632679489661923;
  return atan(__hexagon_divdf3(x, sqrt((1.0 - x) * (1.0 + x))));
}
double acos(double x) {
  if (x != x || fabs(x) > 1) return nanValue();
  if (x == -1) return 3.14159265358979323846;
  return 2.0 * atan(sqrt(__hexagon_divdf3(1.0 - x, 1.0 + x)));
}

/* Hyperbolic functions from exp and log, with the forms that keep relative
 * precision near 0 (where e^x - e^-x and log(1 + x) cancel). */
static double log1pSmall(double y) { /* log(1 + y) for y > -1 */
  double u = 1.0 + y;
  if (u == 1.0) return y;
  /* log(u) * y / (u - 1): the rounding of 1 + y cancels out (Goldberg). */
  return __hexagon_divdf3(log(u) * y, u - 1.0);
}
double sinh(double x) {
  double ax = fabs(x);
  if (x != x) return x;
  if (ax < 1) { /* Taylor series: x^(2k+1) / (2k+1)!, 10 terms below 1e-19 */
    double z = x * x, term = x, sum = x;
    for (int k = 1; k < 11; ++k) { term = __hexagon_divdf3(term * z, (double)((2 * k) * (2 * k + 1))); sum += term; }
    return sum;
  }
  double e = exp(ax);
  double r = 0.5 * e - __hexagon_divdf3(0.5, e);
  return x < 0 ? -r : r;
}
double cosh(double x) {
  if (x != x) return x;
  double e = exp(fabs(x));
  return 0.5 * e + __hexagon_divdf3(0.5, e);
}
double asinh(double x) {
  double ax = fabs(x), r;
  if (x != x || ax == 1.0 / 0.0) return x;
  if (ax > 0x1p28) r = log(ax) + 0.69314718055994530942; /* sqrt(1 + x^2) = |x| in double */
  else r = log1pSmall(ax + __hexagon_divdf3(ax * ax, 1.0 + sqrt(1.0 + ax * ax)));
  return x < 0 ? -r : r;
}
double acosh(double x) {
  if (x != x || x < 1) return nanValue();
  if (x == 1.0 / 0.0) return x;
  if (x > 0x1p28) return log(x) + 0.69314718055994530942;
  double t = x - 1.0; /* exact for x in [1, 2]: keeps precision near 1 */
  return log1pSmall(t + sqrt(t * (x + 1.0)));
}
double atanh(double x) {
  double ax = fabs(x);
  if (x != x || ax > 1) return nanValue();
  if (ax == 1) return x * (1.0 / 0.0);
  double r = 0.5 * log1pSmall(__hexagon_divdf3(2.0 * ax, 1.0 - ax));
  return x < 0 ? -r : r;
}

#define FLOAT1(name) float name##f(float x) { return (float)name((double)x); }
FLOAT1(fabs) FLOAT1(trunc) FLOAT1(floor) FLOAT1(ceil) FLOAT1(nearbyint) FLOAT1(rint) FLOAT1(round)
FLOAT1(exp) FLOAT1(exp2) FLOAT1(log) FLOAT1(log2) FLOAT1(tanh) FLOAT1(erf) FLOAT1(sin) FLOAT1(cos)
FLOAT1(tan) FLOAT1(asin) FLOAT1(acos) FLOAT1(atan) FLOAT1(sinh) FLOAT1(cosh) FLOAT1(asinh) FLOAT1(acosh) FLOAT1(atanh)
float powf(float x, float y) { return (float)pow(x, y); }
float fmodf(float x, float y) { return (float)fmod(x, y); }
