! tsvc_2_s000 submission in Fortran (bind(C), value scalars, OpenMP) for the multi-language e2e tests.
subroutine tsvc_2_s000_fp64(a, b, N, workspace, workspace_size) bind(C, name="tsvc_2_s000_fp64")
  use, intrinsic :: iso_c_binding
  implicit none
  integer(c_int64_t), value :: N, workspace_size
  real(c_double), intent(out) :: a(N)
  real(c_double), intent(in) :: b(N)
  integer(c_int8_t), intent(inout) :: workspace(*)
  integer(c_int64_t) :: i
  if (workspace_size < 0) workspace(1) = 0_c_int8_t  ! never true: only marks the pair as used
  !$omp parallel do simd schedule(static) if (N >= 65536)
  do i = 1, N
    a(i) = b(i) + 1.0_c_double
  end do
  !$omp end parallel do simd
end subroutine tsvc_2_s000_fp64

subroutine tsvc_2_s000_fp32(a, b, N, workspace, workspace_size) bind(C, name="tsvc_2_s000_fp32")
  use, intrinsic :: iso_c_binding
  implicit none
  integer(c_int64_t), value :: N, workspace_size
  real(c_float), intent(out) :: a(N)
  real(c_float), intent(in) :: b(N)
  integer(c_int8_t), intent(inout) :: workspace(*)
  integer(c_int64_t) :: i
  if (workspace_size < 0) workspace(1) = 0_c_int8_t  ! never true: only marks the pair as used
  !$omp parallel do simd schedule(static) if (N >= 65536)
  do i = 1, N
    a(i) = b(i) + 1.0_c_float
  end do
  !$omp end parallel do simd
end subroutine tsvc_2_s000_fp32
