# mk/doctor.mk — what this machine has: `make doctor` (the student's section: compiler, driver, GPU; then
# the grader's tools; then one verdict line; it always exits 0) and `make doctor-grader` (the grader's
# tools alone). The probe is build/doctor (tools/doctor.cu); the report is scripts/doctor.sh.
.PHONY: doctor doctor-grader

$(BUILD)/doctor: tools/doctor.cu $(wildcard common/*.h) $(FLAGS_STAMP)
	$(call say,NVCC,$@)$(NVCC) $(NVCCFLAGS) -o $(ATMP) $< $(PUBLISH)

# What the report says of this copy and its toolchain, passed in its environment.
DOCTOR_ENV = NVCC=$(call shq,$(NVCC)) CC=$(call shq,$(CC)) BUILD=$(call shq,$(BUILD)) GRADER=$(call shq,$(GRADER)) \
             COURSE=$(call shq,$(COURSE))

doctor: $(BUILD)/doctor
	@$(DOCTOR_ENV) CUDA_TOP=$(call shq,$(CUDA_TOP)) ARCH=$(call shq,$(ARCH)) GENCODE=$(call shq,$(strip $(GENCODE))) \
	  ARCH_FROM=$(call shq,$(if $(DETECTED_CC),detected from the GPU,no GPU detected: default)) $(SCRIPTS)/doctor.sh

doctor-grader:
	@$(DOCTOR_ENV) $(SCRIPTS)/doctor.sh grader
