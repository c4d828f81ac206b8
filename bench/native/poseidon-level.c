/*
 * One level of a LeanIMT over Poseidon(2) on BN254, for seeding large scale data sets only (the
 * server hashes with poseidon-lite). poseidon-lite takes ~200 µs a hash on the bench machine, which
 * is an hour for ten million leaves; this takes a few µs. Montgomery arithmetic on 4 × 64-bit limbs;
 * the constants (poseidon-lite's, in Montgomery form) come from poseidon-constants.h, which
 * bench/seed-native-tree.ts writes before compiling. Its results are compared with poseidon-lite's
 * before any level is trusted.
 *
 * poseidon-level <children file> <parents file> <child count>: appends the missing parents (32-byte
 * big-endian nodes) of a level to the parents file: Poseidon(left, right), or left alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "poseidon-constants.h"

typedef unsigned __int128 u128;
typedef uint64_t u64;

static int geq_p(const u64 a[4]) {
  for (int i = 3; i >= 0; i--) {
    if (a[i] > P[i]) return 1;
    if (a[i] < P[i]) return 0;
  }
  return 1;
}

static void sub_p(u64 a[4]) {
  u128 borrow = 0;
  for (int i = 0; i < 4; i++) {
    u128 d = (u128)a[i] - P[i] - borrow;
    a[i] = (u64)d;
    borrow = (d >> 64) ? 1 : 0;
  }
}

static void add_mod(u64 r[4], const u64 a[4], const u64 b[4]) {
  u128 carry = 0;
  for (int i = 0; i < 4; i++) {
    u128 s = (u128)a[i] + b[i] + carry;
    r[i] = (u64)s;
    carry = s >> 64;
  }
  if (carry || geq_p(r)) sub_p(r);
}

static void mont_mul(u64 r[4], const u64 a[4], const u64 b[4]) {
  u64 t[6] = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 4; i++) {
    u128 c = 0;
    for (int j = 0; j < 4; j++) {
      c = (u128)a[j] * b[i] + t[j] + (u64)c;
      t[j] = (u64)c;
      c >>= 64;
    }
    u128 s = (u128)t[4] + (u64)c;
    t[4] = (u64)s;
    t[5] = (u64)(s >> 64);
    u64 m = t[0] * INV;
    c = (u128)m * P[0] + t[0];
    c >>= 64;
    for (int j = 1; j < 4; j++) {
      c = (u128)m * P[j] + t[j] + (u64)c;
      t[j - 1] = (u64)c;
      c >>= 64;
    }
    s = (u128)t[4] + (u64)c;
    t[3] = (u64)s;
    t[4] = t[5] + (u64)(s >> 64);
  }
  memcpy(r, t, 32);
  if (t[4] || geq_p(r)) sub_p(r);
}

static void pow5(u64 x[4]) {
  u64 x2[4], x4[4];
  mont_mul(x2, x, x);
  mont_mul(x4, x2, x2);
  mont_mul(x, x4, x);
}

static void hash2(u64 out[4], const u64 a[4], const u64 b[4]) {
  u64 s[3][4];
  memset(s[0], 0, 32);
  memcpy(s[1], a, 32);
  memcpy(s[2], b, 32);
  for (int round = 0; round < ROUNDS_F + ROUNDS_P; round++) {
    int full = round < ROUNDS_F / 2 || round >= ROUNDS_F / 2 + ROUNDS_P;
    for (int y = 0; y < 3; y++) {
      add_mod(s[y], s[y], C[round * 3 + y]);
      if (full || y == 0) pow5(s[y]);
    }
    u64 mixed[3][4];
    for (int x = 0; x < 3; x++) {
      u64 acc[4], term[4];
      mont_mul(acc, M[x][0], s[0]);
      for (int y = 1; y < 3; y++) {
        mont_mul(term, M[x][y], s[y]);
        add_mod(acc, acc, term);
      }
      memcpy(mixed[x], acc, 32);
    }
    memcpy(s, mixed, sizeof s);
  }
  memcpy(out, s[0], 32);
}

static void from_bytes(u64 r[4], const unsigned char *b) {
  u64 plain[4];
  for (int i = 0; i < 4; i++) {
    u64 v = 0;
    for (int k = 0; k < 8; k++) v = (v << 8) | b[(3 - i) * 8 + k];
    plain[i] = v;
  }
  mont_mul(r, plain, R2);
}

static void to_bytes(unsigned char *b, const u64 m[4]) {
  static const u64 one[4] = {1, 0, 0, 0};
  u64 plain[4];
  mont_mul(plain, m, one);
  for (int i = 0; i < 4; i++)
    for (int k = 0; k < 8; k++) b[(3 - i) * 8 + k] = (unsigned char)(plain[i] >> (56 - 8 * k));
}

#define CHUNK 65536

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: poseidon-level <children> <parents> <child count>\n");
    return 2;
  }
  long long children = atoll(argv[3]);
  long long parents = (children + 1) / 2;
  FILE *in = fopen(argv[1], "rb");
  FILE *out = fopen(argv[2], "ab");
  if (!in || !out) {
    perror("open");
    return 1;
  }
  fseeko(out, 0, SEEK_END);
  long long done = ftello(out) / 32;
  unsigned char *read = malloc(2 * CHUNK * 32), *write = malloc(CHUNK * 32);
  while (done < parents) {
    long long count = parents - done < CHUNK ? parents - done : CHUNK;
    long long childCount = children - 2 * done < 2 * count ? children - 2 * done : 2 * count;
    fseeko(in, 2 * done * 32, SEEK_SET);
    if (fread(read, 32, childCount, in) != (size_t)childCount) {
      fprintf(stderr, "short read\n");
      return 1;
    }
    for (long long i = 0; i < count; i++) {
      if (2 * i + 1 < childCount) {
        u64 a[4], b[4], h[4];
        from_bytes(a, read + 2 * i * 32);
        from_bytes(b, read + (2 * i + 1) * 32);
        hash2(h, a, b);
        to_bytes(write + i * 32, h);
      } else {
        memcpy(write + i * 32, read + 2 * i * 32, 32);
      }
    }
    fwrite(write, 32, count, out);
    fflush(out);
    done += count;
    fprintf(stderr, "%lld\n", done);
  }
  fclose(out);
  fclose(in);
  return 0;
}
