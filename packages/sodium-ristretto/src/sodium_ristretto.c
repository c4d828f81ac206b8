// ristretto255 group operations from the system's libsodium (1.0.18 or later), for Node through
// Node-API, so one build loads on every Node line. Each function takes and returns Uint8Arrays of
// libsodium's sizes and throws where libsodium returns an error, as libsodium-wrappers does.
#include <node_api.h>
#include <sodium.h>
#include <string.h>

_Static_assert(crypto_core_ristretto255_BYTES == 32 && crypto_core_ristretto255_SCALARBYTES == 32, "32-byte elements and scalars");

#define CHECK(call)                                                            \
  do {                                                                         \
    if ((call) != napi_ok) return NULL;                                        \
  } while (0)

// The bytes of argument `i`, which must be a Uint8Array of exactly `length` bytes.
static const unsigned char *bytes_arg(napi_env env, napi_value *argv, size_t argc, size_t i, size_t length,
                                      const char *what) {
  bool is_typed_array = false;
  if (i >= argc || napi_is_typedarray(env, argv[i], &is_typed_array) != napi_ok || !is_typed_array) {
    napi_throw_type_error(env, NULL, what);
    return NULL;
  }
  napi_typedarray_type type;
  size_t count;
  void *data;
  if (napi_get_typedarray_info(env, argv[i], &type, &count, &data, NULL, NULL) != napi_ok ||
      type != napi_uint8_array || count != length) {
    napi_throw_type_error(env, NULL, what);
    return NULL;
  }
  return (const unsigned char *)data;
}

// A new Uint8Array holding a copy of `length` bytes.
static napi_value new_bytes(napi_env env, const unsigned char *source, size_t length) {
  napi_value buffer, array;
  void *data;
  CHECK(napi_create_arraybuffer(env, length, &data, &buffer));
  memcpy(data, source, length);
  CHECK(napi_create_typedarray(env, napi_uint8_array, length, buffer, 0, &array));
  return array;
}

#define ARGS(n)                                                                \
  size_t argc = n;                                                             \
  napi_value argv[n];                                                          \
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL))

// A libsodium operation on two 32-byte arguments with a 32-byte result, returning 0 on success.
typedef int (*binary_op)(unsigned char *out, const unsigned char *a, const unsigned char *b);

// op(argv[0], argv[1]) as a new Uint8Array; a TypeError for arguments of the wrong kind or size, an
// Error with `refused` where libsodium returns an error.
static napi_value binary(napi_env env, napi_callback_info info, binary_op op, const char *first, const char *second,
                         const char *refused) {
  ARGS(2);
  const unsigned char *a = bytes_arg(env, argv, argc, 0, 32, first);
  if (!a) return NULL;
  const unsigned char *b = bytes_arg(env, argv, argc, 1, 32, second);
  if (!b) return NULL;
  unsigned char out[32];
  if (op(out, a, b) != 0) {
    napi_throw_error(env, NULL, refused);
    return NULL;
  }
  return new_bytes(env, out, sizeof out);
}

// scalarmult(scalar, element: 32 bytes each): scalar·element; throws for an invalid element or an
// identity result (crypto_scalarmult_ristretto255).
static napi_value scalarmult(napi_env env, napi_callback_info info) {
  return binary(env, info, crypto_scalarmult_ristretto255, "scalar: 32 bytes", "element: 32 bytes", "invalid point or result");
}

// add(p, q: 32 bytes each): p + q; throws for an invalid element (crypto_core_ristretto255_add).
static napi_value add(napi_env env, napi_callback_info info) {
  return binary(env, info, crypto_core_ristretto255_add, "element: 32 bytes", "element: 32 bytes", "invalid point");
}

// scalarmultBase(scalar: 32 bytes): scalar·G; throws for a zero result.
static napi_value scalarmult_base(napi_env env, napi_callback_info info) {
  ARGS(1);
  const unsigned char *n = bytes_arg(env, argv, argc, 0, crypto_core_ristretto255_SCALARBYTES, "scalar: 32 bytes");
  if (!n) return NULL;
  unsigned char q[crypto_core_ristretto255_BYTES];
  if (crypto_scalarmult_ristretto255_base(q, n) != 0) {
    napi_throw_error(env, NULL, "invalid scalar");
    return NULL;
  }
  return new_bytes(env, q, sizeof q);
}

// fromHash(hash: 64 bytes): the element that hash maps to (crypto_core_ristretto255_from_hash).
static napi_value from_hash(napi_env env, napi_callback_info info) {
  ARGS(1);
  const unsigned char *h = bytes_arg(env, argv, argc, 0, crypto_core_ristretto255_HASHBYTES, "hash: 64 bytes");
  if (!h) return NULL;
  unsigned char p[crypto_core_ristretto255_BYTES];
  crypto_core_ristretto255_from_hash(p, h);
  return new_bytes(env, p, sizeof p);
}

// isValidPoint(element: 32 bytes): whether it is the canonical encoding of an element
// (crypto_core_ristretto255_is_valid_point; the identity, 32 zero bytes, is one).
static napi_value is_valid_point(napi_env env, napi_callback_info info) {
  ARGS(1);
  const unsigned char *p = bytes_arg(env, argv, argc, 0, crypto_core_ristretto255_BYTES, "element: 32 bytes");
  if (!p) return NULL;
  napi_value result;
  CHECK(napi_get_boolean(env, crypto_core_ristretto255_is_valid_point(p) == 1, &result));
  return result;
}

NAPI_MODULE_INIT() {
  if (sodium_init() < 0) {
    napi_throw_error(env, NULL, "libsodium failed to initialise");
    return NULL;
  }
  napi_property_descriptor functions[] = {
      {"scalarmult", NULL, scalarmult, NULL, NULL, NULL, napi_enumerable, NULL},
      {"scalarmultBase", NULL, scalarmult_base, NULL, NULL, NULL, napi_enumerable, NULL},
      {"fromHash", NULL, from_hash, NULL, NULL, NULL, napi_enumerable, NULL},
      {"add", NULL, add, NULL, NULL, NULL, napi_enumerable, NULL},
      {"isValidPoint", NULL, is_valid_point, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  CHECK(napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions));
  napi_value version;
  CHECK(napi_create_string_utf8(env, sodium_version_string(), NAPI_AUTO_LENGTH, &version));
  CHECK(napi_set_named_property(env, exports, "libsodiumVersion", version));
  return exports;
}
