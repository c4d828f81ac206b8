{
  "targets": [
    {
      "target_name": "sodium_ristretto",
      "sources": ["src/sodium_ristretto.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"],
      "libraries": ["-lsodium"]
    }
  ]
}
