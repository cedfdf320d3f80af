/* A stand-in for PnetCDF's header (libpnetcdf is not a Debian package):
 * miniweather_gradient.cc never calls miniWeather's output(), whose calls
 * these declare; each returns an error if it is ever called. */
#ifndef ADCC_PNETCDF_STUB_H
#define ADCC_PNETCDF_STUB_H
#include <mpi.h>
#define NC_NOERR 0
#define NC_CLOBBER 0
#define NC_WRITE 1
#define NC_UNLIMITED 0L
#define NC_DOUBLE 6
static inline int adcc_pnetcdf_stub(void) { return -1; }
#define ncmpi_create(...) adcc_pnetcdf_stub()
#define ncmpi_open(...) adcc_pnetcdf_stub()
#define ncmpi_def_dim(...) adcc_pnetcdf_stub()
#define ncmpi_def_var(...) adcc_pnetcdf_stub()
#define ncmpi_enddef(...) adcc_pnetcdf_stub()
#define ncmpi_inq_varid(...) adcc_pnetcdf_stub()
#define ncmpi_put_vara_double_all(...) adcc_pnetcdf_stub()
#define ncmpi_put_vara_double(...) adcc_pnetcdf_stub()
#define ncmpi_begin_indep_data(...) adcc_pnetcdf_stub()
#define ncmpi_end_indep_data(...) adcc_pnetcdf_stub()
#define ncmpi_close(...) adcc_pnetcdf_stub()
#define ncmpi_strerror(...) "PnetCDF is not available (stub)"
#endif
