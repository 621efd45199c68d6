// The resident buffers of runtime/cuda/hpc/weft_cuda.h (--target=mpi-cuda):
// which bytes each call moves, and that the host and the device see each
// other's newer values where the calls say so. Prints the copies each call
// made (bytes and copies each way, from the runtime's counters) and checks
// the values; built by g++ for the emulation.
#include "weft_cuda.h"

enum { kRows = 10, kCols = 8 };

// d[i][j] = v for the rows [r0, r1) and columns [c0, c1).
__global__ void fill(double *d, int r0, int r1, int c0, int c1, double v) {
  int i = r0 + (int)threadIdx.y, j = c0 + (int)threadIdx.x;
  if (i < r1 && j < c1)
    d[i * kCols + j] = v;
}

static weft_cuda_traffic last;
static void report(const char *what) {
  weft_cuda_traffic now = weft_cuda_counters();
  printf("%s: in %lld bytes %lld copies, out %lld bytes %lld copies\n", what,
         now.h2dBytes - last.h2dBytes, now.h2dCopies - last.h2dCopies,
         now.d2hBytes - last.d2hBytes, now.d2hCopies - last.d2hCopies);
  last = now;
}

static int failures = 0;
static void expect(bool ok, const char *what) {
  if (!ok) {
    printf("FAILED: %s\n", what);
    ++failures;
  }
}

int main() {
  static double h[kRows][kCols];
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kCols; ++j)
      h[i][j] = i * kCols + j;
  const int64_t b = sizeof(double);
  // Rows 0-5 on the device, all newer on the host.
  double *d = weft_cuda_resident<double>(h, 6 * kCols);
  expect(weft_cuda_resident<double>(h, 4 * kCols) == d, "same buffer");
  weft_cuda_resident_in(d, h, b, 0, kCols, 0, 1, 1, 4, 0, kCols);
  report("rows 1-3 in");
  weft_cuda_resident_in(d, h, b, 0, kCols, 0, 1, 0, 5, 0, kCols);
  report("rows 0-4 in");
  weft_cuda_resident_in(d, h, b, 0, kCols, 0, 1, 1, 5, 0, kCols);
  report("rows 1-4 in again");
  // A kernel writes row 2, columns 1-6: newer on the device, nothing moves.
  WEFT_CUDA_LAUNCH(fill, 1, 1, 1, kCols, 1, 1, d, 2, 3, 1, 7, -1.0);
  weft_cuda_sync();
  weft_cuda_resident_out(h, d, b, 0, kCols, 0, 1, 2, 3, 1, 7);
  report("row 2 written");
  expect(h[2][3] == 2 * kCols + 3, "the host keeps its value until asked");
  // A message reads h[2][0..4): the device's newer part, columns 1-3.
  weft_cuda_resident_buffer &r = weft_cuda_residents()[(const char *)h];
  std::vector<std::pair<int64_t, int64_t>> sent = weft_cuda_ranges_within(
      r.deviceNewer, (2 * kCols) * b, (2 * kCols + 4) * b);
  expect(sent.size() == 1 && sent[0].first == (2 * kCols + 1) * b &&
             sent[0].second == (2 * kCols + 4) * b,
         "the device-newer part of a run");
  weft_cuda_parts parts;
  weft_cuda_take_device_newer(r, (2 * kCols) * b, (2 * kCols + 4) * b, parts);
  weft_cuda_copy_parts((char *)h, (const char *)d, parts,
                       cudaMemcpyDeviceToHost);
  report("h[2][0..4) read");
  expect(h[2][1] == -1.0 && h[2][3] == -1.0 && h[2][4] == 2 * kCols + 4,
         "the read part came back, no more");
  // Host code reads the array: the rest of the newer part comes back.
  weft_cuda_host_access(&h[0][0], 0);
  report("host reads");
  expect(h[2][6] == -1.0 && h[2][7] == 2 * kCols + 7, "the rest came back");
  weft_cuda_resident_in(d, h, b, 0, kCols, 0, 1, 1, 5, 0, kCols);
  report("rows 1-4 in after a host read");
  // Host code writes it: the next box goes in whole.
  weft_cuda_host_access(&h[1][0], 1);
  h[3][2] = 100.0;
  report("host writes");
  weft_cuda_resident_in(d, h, b, 0, kCols, 0, 1, 3, 5, 2, 5);
  report("rows 3-4 columns 2-4 in");
  // The buffer grows to all rows; the new rows are newer on the host, the
  // device keeps what it held.
  double *g = weft_cuda_resident<double>(h, kRows * kCols);
  report("grown");
  weft_cuda_resident_in(g, h, b, 0, kCols, 0, 1, 3, kRows, 0, kCols);
  report("rows 3-9 in");
  WEFT_CUDA_LAUNCH(fill, 1, 1, 1, kCols, 2, 1, g, 8, 10, 0, kCols, 7.0);
  weft_cuda_sync();
  weft_cuda_resident_out(h, g, b, 0, kCols, 0, 1, 8, 10, 0, kCols);
  double onDevice = 0;
  WEFT_CUDA_CHECK(cudaMemcpy(&onDevice, g + 3 * kCols + 2, sizeof(double),
                             cudaMemcpyDeviceToHost));
  expect(onDevice == 100.0, "the host's write reached the device");
  // A kernel writes column 5 of rows 0-6; host code reads the array: the
  // column comes back as one 2-D copy (7 elements of 8 bytes, a row apart).
  WEFT_CUDA_LAUNCH(fill, 1, 1, 1, 1, 7, 1, g, 0, 7, 5, 6, 3.0);
  weft_cuda_sync();
  weft_cuda_resident_out(h, g, b, 0, kCols, 0, 1, 0, 7, 5, 6);
  last = weft_cuda_counters();
  weft_cuda_host_access(h, 0);
  report("column 5 read");
  expect(h[0][5] == 3.0 && h[6][5] == 3.0 && h[7][5] == 7 * kCols + 5,
         "the column came back");
  last = weft_cuda_counters();
  // The region ends: rows 8-9 come back, the buffers are freed.
  weft_cuda_release_all();
  report("release");
  expect(h[9][7] == 7.0 && weft_cuda_residents().empty(), "released");
  printf("%d failures\n", failures);
  return failures != 0;
}
