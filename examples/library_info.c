/* library_info: the first program to read. It uses only the public API of
 * the standard's Ch.3 (no server needed) and prints what the installed
 * library is and does:
 *   cc library_info.c $(pkg-config --cflags --libs pmix) && ./a.out      */
#include <pmix.h>
#include <stdio.h>

int main(void) {
  printf("library:      %s\n", PMIx_Get_version());
  printf("initialized:  %s\n", PMIx_Initialized() ? "yes" : "no");

  /* Attributes are named keys: look one up both ways. */
  const char *key = PMIx_Get_attribute_string("PMIX_JOB_SIZE");
  printf("attribute:    PMIX_JOB_SIZE = \"%s\" -> %s\n", key ? key : "(none)",
         key ? PMIx_Get_attribute_name(key) : "(none)");

  /* Values are typed: load an info, copy it, read it back. */
  pmix_info_t *info;
  uint32_t size = 4;
  PMIX_INFO_CREATE(info, 2);
  PMIx_Info_load(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
  PMIx_Info_load(&info[1], PMIX_HOSTNAME, "node001", PMIX_STRING);
  pmix_info_t copy;
  PMIX_INFO_CONSTRUCT(&copy);
  pmix_status_t rc = PMIx_Info_xfer(&copy, &info[1]);
  printf("info copy:    %s -> %s = %s (%s)\n", PMIx_Error_string(rc), copy.key,
         copy.value.data.string, PMIx_Data_type_string(copy.value.type));
  PMIX_INFO_DESTRUCT(&copy);
  uint32_t *back = NULL;
  size_t sz = 0;
  rc = PMIx_Value_unload(&info[0].value, (void **)&back, &sz);
  printf("value unload: %s -> %u (%zu bytes)\n", PMIx_Error_string(rc), back ? *back : 0, sz);
  free(back);
  PMIX_INFO_FREE(info, 2);

  /* Bad input gets a status, never a crash. */
  rc = PMIx_Info_load(NULL, PMIX_JOB_SIZE, &size, PMIX_UINT32);
  printf("bad input:    PMIx_Info_load(NULL, ...) -> %s\n", PMIx_Error_string(rc));
  return 0;
}
