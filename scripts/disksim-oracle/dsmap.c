/* dsmap: LBN -> physical location oracle built on CMU DiskSim 4.0's libdiskmodel.
 *
 * usage: dsmap FILE.parv|FILE.diskspecs|FILE.model [dm_disk-block-name] < lbns
 *   Run it from the directory that holds the drive files (the .model names
 *   its .seek file relative to the cwd, as DiskSim does).
 *   A .parv is resolved as DiskSim would: its "source X.diskspecs" line(s),
 *   then that file's "Model = source Y.model"; the model file is loaded with
 *   libparam and instantiated with lp_instantiate (the same code path
 *   disksim_disk uses for "Model = ...").
 * output: first line  "# blocks N zones Z dm_sectors N2 file Y.model"
 *         then one line per input LBN:
 *           lbn cyl head sector angle spt rv remap
 *         angle = dm_pbn_skew(d,&pbn) / 2^32 (revolutions, DiskSim frame)
 *         spt   = dm_get_sectors_lbn(d, lbn)
 *         rv    = return of dm_translate_ltop (0 = DM_OK, <0 = slipped/remapped/NX)
 *         remap = the remapsector flag
 *   With DSMAP_CHECK=1 in the environment, stdin is ignored and every LBN is
 *   checked for ltop->ptol round trip (prints failures, then a count).
 *   Before each translation pbn is preset to (-1,-1,-1) so a translator that
 *   does not write its result (g1_ltop_nosparing) shows up as -1 -1 -1.
 */
#include <diskmodel/dm.h>
#include <diskmodel/modules/modules.h>
#include "layout_g1.h" /* internal: struct dm_layout_g1 (for the zone sum) */
#include <libparam/libparam.h>
#include <libddbg/libddbg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int endswith(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && strcmp(s + a - b, suf) == 0;
}

/* find the first "source NAME" whose NAME ends with suffix; if key!=NULL
   only on lines containing key */
static char *find_source(const char *file, const char *key, const char *suffix) {
  FILE *f = fopen(file, "r");
  char line[4096];
  if (!f) { fprintf(stderr, "dsmap: cannot open %s\n", file); exit(1); }
  while (fgets(line, sizeof line, f)) {
    char *p = line, *q;
    if (key && !strstr(line, key)) continue;
    while ((p = strstr(p, "source")) != NULL) {
      char name[1024];
      p += 6;
      if (sscanf(p, " %1023[^ \t\r\n,}]", name) == 1 && endswith(name, suffix)) {
        fclose(f);
        return strdup(name);
      }
    }
    (void)q;
  }
  fclose(f);
  return NULL;
}

int main(int argc, char **argv) {
  const char *arg, *blockname = NULL;
  char *model = NULL;
  FILE *mf;
  struct dm_disk_if *d;
  int c, nz, total = 0;
  long long lbn;

  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE.parv|FILE.diskspecs|FILE.model [dm_disk name] < lbns\n", argv[0]);
    return 1;
  }
  arg = argv[1];
  if (argc >= 3) blockname = argv[2];
  ddbg_assert_setfile(stderr);

  if (endswith(arg, ".parv")) {
    char *specs = find_source(arg, NULL, ".diskspecs");
    if (!specs) { fprintf(stderr, "dsmap: no .diskspecs sourced in %s\n", arg); return 1; }
    model = find_source(specs, "Model", ".model");
    if (!model) { fprintf(stderr, "dsmap: no 'Model = source X.model' in %s\n", specs); return 1; }
  } else if (endswith(arg, ".diskspecs")) {
    model = find_source(arg, "Model", ".model");
    if (!model) { fprintf(stderr, "dsmap: no 'Model = source X.model' in %s\n", arg); return 1; }
  } else {
    model = strdup(arg);
  }

  mf = fopen(model, "r");
  if (!mf) { fprintf(stderr, "dsmap: cannot open %s\n", model); return 1; }
  for (c = 0; c <= DM_MAX_MODULE; c++) lp_register_module(dm_mods[c]);
  lp_init_typetbl();
  lp_loadfile(mf, 0, 0, model, 0, 0);
  fclose(mf);
  d = (struct dm_disk_if *)lp_instantiate("dsmap", (char *)blockname);
  if (!d) { fprintf(stderr, "dsmap: lp_instantiate failed for %s\n", model); return 1; }

  /* total = sum over zones of the layout's blocks-in-zone.  g1_get_zone()
     tests an uninitialised pointer before use and in this -O2 build always
     returns -1, so for g1 layouts read the bands directly. */
  nz = d->layout->dm_get_numzones(d);
  {
    int ok = 1;
    for (c = 0; c < nz; c++) {
      struct dm_layout_zone z;
      if (d->layout->dm_get_zone(d, c, &z) != 0) { ok = 0; break; }
      total += z.lbn_high - z.lbn_low + 1;
    }
    if (!ok) {
      struct dm_layout_g1 *l = (struct dm_layout_g1 *)d->layout;
      total = 0;
      for (c = 0; c < l->bands_len; c++) total += l->bands[c].blksinband;
    }
    printf("# blocks %d zones %d dm_sectors %d dm_get_zone %s file %s\n", total, nz,
           d->dm_sectors, ok ? "ok" : "failed(used g1 bands)", model);
  }

  if (getenv("DSMAP_CHECK")) {
    /* full-disk self-check: ltop then ptol must give back the same LBN */
    int bad = 0, shown = 0;
    for (c = 0; c < d->dm_sectors; c++) {
      struct dm_pbn pbn = { -1, -1, -1 };
      int back;
      d->layout->dm_translate_ltop(d, c, MAP_FULL, &pbn, 0);
      back = d->layout->dm_translate_ptol(d, &pbn, 0);
      if (back != c) {
        bad++;
        if (shown++ < 20)
          printf("# roundtrip lbn %d -> (%d,%d,%d) -> %d\n", c, pbn.cyl, pbn.head, pbn.sector, back);
      }
    }
    printf("# roundtrip failures %d of %d\n", bad, d->dm_sectors);
    return 0;
  }

  while (scanf("%lld", &lbn) == 1) {
    struct dm_pbn pbn = { -1, -1, -1 };
    int remap = 0, rv, spt = -1;
    double ang = -1.0;
    if (lbn < 0 || lbn >= d->dm_sectors) {
      printf("%lld out_of_range\n", lbn);
      continue;
    }
    rv = d->layout->dm_translate_ltop(d, (int)lbn, MAP_FULL, &pbn, &remap);
    spt = d->layout->dm_get_sectors_lbn(d, (int)lbn);
    if (pbn.cyl >= 0 && pbn.head >= 0 && pbn.sector >= 0)
      ang = (double)d->layout->dm_pbn_skew(d, &pbn) / 4294967296.0;
    printf("%lld %d %d %d %.9f %d %d %d\n", lbn, pbn.cyl, pbn.head, pbn.sector, ang, spt, rv, remap);
  }
  fflush(stdout);
  return 0;
}
